// Package input holds the rules every piece of client input meets, whatever
// the transport: JSON is one value, in valid UTF-8, with no key twice in an
// object and no unpaired surrogate escape; and an error message quotes at most
// MaxQuote bytes of what the client sent. It imports nothing of the project,
// so that every package can use it.
package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxQuote is the most bytes of client input an error message quotes.
const MaxQuote = 64

// Quote returns s quoted as by %q, cut to its first MaxQuote bytes at a rune
// boundary; a cut quote is followed by "…".
func Quote(s string) string {
	if len(s) <= MaxQuote {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:cut(s)]) + "…"
}

// clip is s cut as by Quote, unquoted: for text such as a number literal.
func clip(s string) string {
	if len(s) <= MaxQuote {
		return s
	}
	return s[:cut(s)] + "…"
}

// cut returns where Quote cuts a string longer than MaxQuote: at MaxQuote,
// or before the rune that straddles it.
func cut(s string) int {
	for i := MaxQuote; i > MaxQuote-utf8.UTFMax && i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			return i
		}
	}
	return MaxQuote
}

// CheckJSON reports whether data is exactly one JSON value (surrounding white
// space aside) in valid UTF-8, in which no object has a key twice (keys are
// compared unescaped, at any depth) and no string has an unpaired surrogate
// escape such as \ud800. encoding/json accepts all of these: it replaces
// invalid text with U+FFFD and keeps the last of two equal keys. The error
// says what is wrong, quoting at most MaxQuote bytes of data.
func CheckJSON(data []byte) error {
	if !utf8.Valid(data) {
		return errors.New("the JSON is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // a number too large for a float64 is still JSON
	if err := checkValue(dec); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("there is data after the JSON value")
	}
	return checkEscapes(data)
}

// level is one open object or array of checkValue.
type level struct {
	keys map[string]bool // an object's keys so far; nil for an array
	key  bool            // the object's next token is a key or its end
}

// checkValue reads one JSON value from dec, refusing a key twice in an
// object. dec checks the syntax: after '{' comes a string key or '}', and so
// on.
func checkValue(dec *json.Decoder) error {
	var open []level
	for {
		tok, err := dec.Token()
		if err != nil {
			return syntaxError(err)
		}
		if n := len(open); n > 0 && open[n-1].key {
			if k, ok := tok.(string); ok {
				if open[n-1].keys[k] {
					return fmt.Errorf("the key %s appears twice in an object", Quote(k))
				}
				open[n-1].keys[k] = true
				open[n-1].key = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			open = append(open, level{keys: map[string]bool{}, key: true})
			continue
		case json.Delim('['):
			open = append(open, level{})
			continue
		case json.Delim('}'), json.Delim(']'):
			open = open[:len(open)-1]
		}
		// A value has ended.
		if len(open) == 0 {
			return nil
		}
		if l := &open[len(open)-1]; l.keys != nil {
			l.key = true
		}
	}
}

// syntaxError describes an error of json.Decoder.Token, whose messages quote
// at most one character.
func syntaxError(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return errors.New("the JSON ends early")
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("not valid JSON at byte %d: %v", se.Offset, se)
	}
	return errors.New(Describe(err))
}

// checkEscapes refuses a \u escape of a UTF-16 surrogate that is not a high
// one followed by a low one. data is valid JSON: a backslash is always in a
// string, and every \u has four hex digits.
func checkEscapes(data []byte) error {
	for i := 0; i < len(data); i++ {
		if data[i] != '\\' {
			continue
		}
		i++
		if data[i] != 'u' {
			continue
		}
		r := hex4(data[i+1 : i+5])
		i += 4
		switch {
		case r < 0xd800 || r > 0xdfff:
		case r < 0xdc00 && i+6 < len(data) && data[i+1] == '\\' && data[i+2] == 'u':
			if lo := hex4(data[i+3 : i+7]); lo < 0xdc00 || lo > 0xdfff {
				return fmt.Errorf("a string has the unpaired surrogate \\u%04x", r)
			}
			i += 6
		default:
			return fmt.Errorf("a string has the unpaired surrogate \\u%04x", r)
		}
	}
	return nil
}

// hex4 reads four hex digits.
func hex4(b []byte) rune {
	n, _ := strconv.ParseUint(string(b), 16, 16)
	return rune(n)
}

// Describe returns the message of an error of encoding/json's decoding for a
// client, without the "json: " prefix, quoting at most MaxQuote bytes of the
// input (encoding/json quotes unknown keys and number literals whole).
func Describe(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		what := "the value"
		if te.Field != "" {
			what = Quote(te.Field)
		}
		return fmt.Sprintf("%s must be %s, not %s", what, want(te.Type), clip(te.Value))
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if q, ok := strings.CutPrefix(msg, "unknown field "); ok {
		if name, err := strconv.Unquote(q); err == nil {
			return "unknown field " + Quote(name)
		}
	}
	return clip(msg)
}

// want names the JSON a Go type takes.
func want(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}
