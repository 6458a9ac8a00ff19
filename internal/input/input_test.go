package input

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	long := strings.Repeat("x", 100<<10)
	euro := strings.Repeat("€", 30) // 90 bytes: the cut falls inside the 22nd
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{"DS1-D1N-AAAAAAB", `"DS1-D1N-AAAAAAB"`},
		{long[:MaxQuote], `"` + long[:MaxQuote] + `"`},
		{long, `"` + long[:MaxQuote] + `"…`},
		{euro, `"` + euro[:63] + `"…`},
		{"a\xffb", `"a\xffb"`},
		{strings.Repeat("\x80", 70), `"` + strings.Repeat(`\x80`, MaxQuote) + `"…`},
	} {
		if got := Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%.20q…) = %.90s, want %.90s", tc.in, got, tc.want)
		}
	}
}

func TestCheckJSON(t *testing.T) {
	good := []string{`{}`, ` {"a":1} `, `[]`, `"x"`, `1e999`, `null`, `{"a":{"a":1},"b":[{"a":1},{"a":2}]}`,
		`{"a":1,"A":2}`, `["a","a"]`, `"\ud83d\ude00"`, `"\\ud800"`, `"é€😀"`, `{"":1,"x":""}`, "\t[1,\n2]\r\n"}
	for _, s := range good {
		if err := CheckJSON([]byte(s)); err != nil {
			t.Errorf("CheckJSON(%s) = %v, want nil", s, err)
		}
	}
	bad := []string{``, ` `, `{`, `{"a":1}}`, `{"a":1}]`, `{} {}`, `1 2`, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`,
		`{"x":{"a":1,"a":2}}`, `[{"a":[{"b":1,"b":1}]}]`, "{\"a\":\"\xff\"}", "\xef\xbb\xbf{}", `"\ud800"`,
		`"\udc00"`, `"\ud800\u0041"`, `"\ud800x"`, `{"a":"\ud83dx"}`, `'x'`, `{a:1}`, `[1,]`}
	for _, s := range bad {
		if err := CheckJSON([]byte(s)); err == nil {
			t.Errorf("CheckJSON(%q) = nil, want an error", s)
		}
	}
}

func TestMessagesQuoteLittle(t *testing.T) {
	long := strings.Repeat("k", 100<<10)
	for _, s := range []string{`{"` + long + `":1,"` + long + `":2}`, `{"a":1}` + long, "[\"" + long + "\xff\"]"} {
		err := CheckJSON([]byte(s))
		if err == nil || len(err.Error()) > 200 {
			t.Errorf("CheckJSON of %d bytes: %.300v", len(s), err)
		}
	}
	type req struct {
		Draw *int `json:"draw"`
	}
	for _, s := range []string{`{"` + long + `":1}`, `{"draw":` + strings.Repeat("9", 100<<10) + `}`, `{"draw":"` + long + `"}`} {
		dec := json.NewDecoder(strings.NewReader(s))
		dec.DisallowUnknownFields()
		var v req
		err := dec.Decode(&v)
		if err == nil {
			t.Fatalf("%.40s: decoded", s)
		}
		if msg := Describe(err); len(msg) > 200 || strings.Contains(msg, strings.Repeat("k", MaxQuote+1)) ||
			strings.Contains(msg, strings.Repeat("9", MaxQuote+1)) {
			t.Errorf("Describe(%.60v…) = %.300s", err, msg)
		}
	}
}
