package klondike

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestDecodeAction(t *testing.T) {
	good := map[string]Action{
		`{"type":"move","from":"c3","count":2,"to":"c7"}`: NewMove(2, 6, 2),
		`{"type":"move","from":"w","to":"f"}`:             NewMove(Waste, AnyF, 1),
		`{"type":"move","from":"f8","to":"c1"}`:           NewMove(F1+7, 0, 1),
		`{"type":"draw"}`:                                 Simple(Draw),
		`{"type":"recycle"}`:                              Simple(Recycle),
		`{"type":"undo"}`:                                 Simple(Undo),
		`{"type":"tap","from":"c9"}`:                      FromPile(Tap, 8, 0),
		`{"type":"dtap","from":"c1","count":13}`:          FromPile(DTap, 0, 13),
		` {"type":"pass"} `:                               Simple(Pass),
		`{"type":"finish"}`:                               Simple(Finish),
	}
	for in, want := range good {
		a, err := DecodeAction([]byte(in))
		if want.Type == DTap || want.Type == Move {
			if want.Count == 0 {
				want.Count = 1
			}
		}
		if err != nil || a != want {
			t.Errorf("DecodeAction(%s) = %+v, %v; want %+v", in, a, err, want)
		}
	}
	bad := []string{
		``, `null`, `[]`, `{}`, `{"type":""}`, `{"type":"fly"}`, `{"type":"forfeit"}`,
		`{"type":"draw","from":"c1"}`, `{"type":"draw","count":1}`, `{"type":"move","from":"c1"}`,
		`{"type":"move","to":"c1"}`, `{"type":"move","from":"c0","to":"c1"}`, `{"type":"move","from":"c1","to":"f9"}`,
		`{"type":"move","from":"c1","to":"c2","count":0}`, `{"type":"move","from":"c1","to":"c2","count":14}`,
		`{"type":"tap","from":"c1","to":"f"}`, `{"type":"tap","from":"c1","count":1}`, `{"type":"draw","seat":1}`, `{"type":"finish","from":"c1"}`,
		`{"type":"draw","extra":1}`, `{"type":"draw"} {}`, `{"type":"draw"}]`, `{"type":"draw"}}`, `{"type":"draw"`, `{"type":"move","from":"C1","to":"c2"}`,
		`{"type":"undo","type":"draw"}`, `{"type":"move","from":"c1","to":"c2","to":"f"}`, "{\"type\":\"draw\",\"x\":\"\xff\"}",
		"{\"type\":\"dr\xffaw\"}", `{"type":"draw\ud800"}`,
	}
	for _, in := range bad {
		_, err := DecodeAction([]byte(in))
		var e *Error
		if !errors.As(err, &e) || e.Code != BadRequest {
			t.Errorf("DecodeAction(%s) = %v, want a bad_request error", in, err)
		}
	}
}

// TestDecodeActionQuotesLittle checks that a refusal quotes at most 64 bytes
// of a long type, pile or unknown key.
func TestDecodeActionQuotesLittle(t *testing.T) {
	long := strings.Repeat("q", 100<<10)
	for _, in := range []string{`{"type":"` + long + `"}`, `{"type":"tap","from":"` + long + `"}`,
		`{"type":"move","from":"c1","to":"` + long + `"}`, `{"type":"draw","` + long + `":1}`,
		`{"type":"move","from":"c1","to":"c2","count":` + strings.Repeat("9", 100<<10) + `}`} {
		_, err := DecodeAction([]byte(in))
		var e *Error
		if !errors.As(err, &e) || e.Code != BadRequest {
			t.Fatalf("DecodeAction(%.40s…) = %v, want a bad_request error", in, err)
		}
		if len(e.Msg) > 200 || strings.Contains(e.Msg, strings.Repeat("q", 65)) || strings.Contains(e.Msg, strings.Repeat("9", 65)) {
			t.Errorf("DecodeAction(%.40s…): the message quotes too much: %.300s", in, e.Msg)
		}
	}
}

func TestActionJSONRoundTrip(t *testing.T) {
	for _, a := range []Action{NewMove(0, 8, 13), NewMove(Waste, F1+3, 1), Simple(Draw), FromPile(Tap, Waste, 0), FromPile(DTap, 4, 3)} {
		b := a.AppendJSON(nil)
		got, err := DecodeAction(b)
		if err != nil || got != a {
			t.Errorf("%s decodes to %+v, %v; want %+v", b, got, err, a)
		}
	}
}

func FuzzDecodeAction(f *testing.F) {
	for _, s := range []string{
		`{"type":"move","from":"c3","count":2,"to":"c7"}`, `{"type":"draw"}`, `{"type":"tap","from":"w"}`,
		`{"type":"dtap","from":"c1","count":13}`, `{"type":"move","from":"f1","to":"c2"}`, `{"type":"undo","x":1}`,
		`{"type":"claim"}`, `{"type":"move","from":"c1","to":"f","count":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := DecodeAction(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Code != BadRequest {
				t.Fatalf("error %v is not a bad_request", err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("DecodeAction accepted %q, which is not one JSON value", data)
		}
		b := a.AppendJSON(nil)
		again, err := DecodeAction(b)
		if err != nil || again != a {
			t.Fatalf("%s → %+v → %s → %+v, %v", data, a, b, again, err)
		}
		if string(again.AppendJSON(nil)) != string(b) {
			t.Fatalf("canonical form not stable: %s", b)
		}
	})
}
