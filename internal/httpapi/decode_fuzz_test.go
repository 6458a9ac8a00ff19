package httpapi

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"dsol/internal/cards"
	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/players"
	"dsol/internal/protocol"
)

// The fuzz targets of the request-body decoders (decode.go). Each checks
// that the decoder never panics, refuses with a client error (bad_request or
// bad_code, never internal), accepts only a body that is empty or one JSON
// value, and that what it accepts re-encodes to a body that decodes to the
// same request.

// checkRefusal fails unless err is a client error of the API.
func checkRefusal(t *testing.T, body []byte, err error) {
	t.Helper()
	e := protocol.AsError(err)
	if e.Code != game.BadRequest && e.Code != game.BadCode || e.Msg == "" {
		t.Fatalf("%q: refused with %v (code %s), want bad_request or bad_code", body, err, e.Code)
	}
}

// checkAccepted fails unless an accepted body is blank or one JSON value.
func checkAccepted(t *testing.T, body []byte) {
	t.Helper()
	if len(bytes.Trim(body, jsonSpace)) != 0 && !json.Valid(body) {
		t.Fatalf("%q: accepted, but it is not one JSON value", body)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzDecodeJSON checks the strict body reader all the decoders share.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{``, ` `, "\t\r\n", "\v", "\u00a0", `{}`, `{"name":"Ada"}`, `{"name":"Ada"} `,
		`{"name":"Ada"}]`, `{"name":"Ada"}}`, `{"name":"Ada"} {}`, `{"name":"Ada"`, `{"nom":"Ada"}`, `null`, `[]`, `"x"`, `1`} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, body []byte, allowEmpty bool) {
		var in nameRequest
		if err := decodeJSON(body, &in, allowEmpty); err != nil {
			checkRefusal(t, body, err)
			return
		}
		checkAccepted(t, body)
		if !allowEmpty && len(bytes.Trim(body, jsonSpace)) == 0 {
			t.Fatalf("%q: an empty body was accepted where a body is needed", body)
		}
	})
}

// FuzzDecodeName checks POST /api/v1/players and PATCH /api/v1/me: an
// accepted name has 1 to 24 printable characters and is not blank.
func FuzzDecodeName(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"name":"Ada"}`, `{"name":"Zoë Åström"}`, `{"name":"匿名のプレイヤー"}`,
		`{"name":""}`, `{"name":"   "}`, `{"name":"a\u0000b"}`, `{"name":"tab\there"}`, `{"name":"\u200b"}`,
		`{"name":"123456789012345678901234"}`, `{"name":"1234567890123456789012345"}`, `{"name":"\ud800"}`,
		`{"name":null}`, `{"name":1}`, `{"name":"Ada","x":1}`, `{"NAME":"Ada"}`, `{"name":"Ada"}]`, "{\"name\":\"\xff\"}"} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, body []byte, required bool) {
		name, given, err := decodeName(body, required)
		if err != nil {
			checkRefusal(t, body, err)
			return
		}
		checkAccepted(t, body)
		if !given {
			if required || name != "" {
				t.Fatalf("%q: no name given, yet %q (required %v)", body, name, required)
			}
			return
		}
		n := utf8.RuneCountInString(name)
		if !utf8.ValidString(name) || n < 1 || n > 24 {
			t.Fatalf("%q: accepted name %q of %d characters", body, name, n)
		}
		blank := true
		for _, c := range name {
			if !unicode.IsPrint(c) {
				t.Fatalf("%q: accepted name %q with the unprintable %U", body, name, c)
			}
			blank = blank && unicode.IsSpace(c)
		}
		if blank {
			t.Fatalf("%q: accepted the blank name %q", body, name)
		}
		again, given, err := decodeName(mustMarshal(t, nameRequest{Name: &name}), required)
		if err != nil || !given || again != name {
			t.Fatalf("%q: name %q re-encoded decodes to %q, %v, %v", body, name, again, given, err)
		}
	})
}

// FuzzDecodeCreateGame checks POST /api/v1/games.
func FuzzDecodeCreateGame(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"draw":1}`, `{"draw":3,"scoring":"vegas"}`, `{"scoring":"normal"}`,
		`{"code":"DS1-D1N-AAAAAAB"}`, `{"code":"ds1-d3v-zzzzzzz"}`, `{"code":"DR1-D1UI-AAAAAAB"}`, `{"code":"DS1-D1N-AAAAAAB","draw":1}`,
		`{"code":""}`, `{"code":null}`, `{"draw":2}`, `{"draw":1.5}`, `{"draw":"1"}`, `{"scoring":"Vegas"}`, `{"decks":"mirrored"}`,
		`{"draw":3} x`, `{"draw":3}]`, `[]`, `null`, "{\"code\":\"\\u00a0DS1-D1N-AAAAAAB\"}",
		`{"winnable":true}`, `{"draw":3,"scoring":"vegas","winnable":false}`, `{"winnable":"yes"}`, `{"winnable":true,"code":"DS1-D1N-AAAAAAB"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		spec, err := decodeCreateGame(body)
		if err != nil {
			checkRefusal(t, body, err)
			return
		}
		checkAccepted(t, body)
		c := spec.code
		if c.Kind != cards.Solo || !c.Valid() || spec.random && c.Deal != 0 || spec.winnable && !spec.random {
			t.Fatalf("%q: accepted %+v", body, spec)
		}
		var again gameRequest
		if spec.random {
			scoring := "normal"
			if c.Vegas {
				scoring = "vegas"
			}
			again = gameRequest{Draw: &c.Draw, Scoring: &scoring, Winnable: spec.winnable}
		} else {
			code := c.String()
			again = gameRequest{Code: &code}
		}
		enc := mustMarshal(t, again)
		got, err := decodeCreateGame(enc)
		if err != nil || got != spec {
			t.Fatalf("%q → %+v → %s → %+v, %v", body, spec, enc, got, err)
		}
	})
}

// FuzzDecodeCreateRace checks POST /api/v1/races.
func FuzzDecodeCreateRace(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `{"draw":3,"redeal":"single","decks":"mirrored","turns":"simultaneous","soloOutBonus":false,"series":1,"public":true}`,
		`{"code":"DR1-D3SM-HELLOXY","turns":"alternating","first":"creator","turnSeconds":30}`, `{"code":"DS1-D1N-AAAAAAB"}`,
		`{"code":"DR1-D1UI-AAAAAAB","draw":1}`, `{"turns":"alternating","first":"opponent","series":9,"public":false}`,
		`{"bot":"fast"}`, `{"bot":"slow","public":true}`, `{"bot":""}`, `{"bot":"turbo"}`, `{"series":0}`, `{"series":10}`,
		`{"turns":"sideways"}`, `{"first":"me"}`, `{"turnSeconds":30}`, `{"turns":"alternating","turnSeconds":4}`,
		`{"turns":"alternating","turnSeconds":3601}`, `{"turns":"","first":""}`, `{"redeal":"twice"}`, `{"decks":"shared"}`,
		`{"draw":2}`, `{"invite":"x"}`, `{"public":null}`, `{"series":1}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		spec, err := decodeCreateRace(body)
		if err != nil {
			checkRefusal(t, body, err)
			return
		}
		checkAccepted(t, body)
		c, o := spec.code, spec.opts
		if c.Kind != cards.Race || !c.Valid() || spec.random && c.Deal != 0 {
			t.Fatalf("%q: accepted code %+v (random %v)", body, c, spec.random)
		}
		if _, err := engine.RaceOptions(o); err != nil || o.Series < 1 || o.Series > game.MaxSeries ||
			o.TurnSeconds != 0 && (o.Turns != "alternating" || o.TurnSeconds < game.MinTurnSeconds || o.TurnSeconds > game.MaxTurnSeconds) ||
			o.Bot != "" && spec.public || o.FirstSeat != 0 || o.Prev != "" {
			t.Fatalf("%q: accepted options %+v (public %v, engine: %v)", body, o, spec.public, err)
		}
		in := raceRequest{Turns: &o.Turns, First: &o.First, SoloOutBonus: o.SoloOutBonus, Series: &o.Series,
			Public: &spec.public, TurnSeconds: o.TurnSeconds}
		if o.Bot != "" {
			in.Bot = &o.Bot
		}
		if spec.random {
			redeal, decks := "unlimited", "independent"
			if c.Single {
				redeal = "single"
			}
			if c.Mirrored {
				decks = "mirrored"
			}
			in.Draw, in.Redeal, in.Decks = &c.Draw, &redeal, &decks
		} else {
			code := c.String()
			in.Code = &code
		}
		enc := mustMarshal(t, in)
		got, err := decodeCreateRace(enc)
		if err != nil || got != spec {
			t.Fatalf("%q → %+v → %s → %+v, %v", body, spec, enc, got, err)
		}
	})
}

// FuzzDecodeMatch checks POST /api/v1/match against POST /api/v1/races: a
// body it accepts is one decodeCreateRace accepts, read the same way, with
// a server-dealt deal and neither bot nor public; a body it refuses that
// decodeCreateRace accepts has a code, a bot or public.
func FuzzDecodeMatch(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `{"draw":3,"redeal":"single","decks":"mirrored","turns":"simultaneous","soloOutBonus":false,"series":1}`,
		`{"turns":"alternating","first":"creator","turnSeconds":30}`, `{"code":"DR1-D3SM-HELLOXY"}`, `{"bot":"fast"}`,
		`{"public":false}`, `{"public":true,"draw":1}`, `{"public":null}`, `{"draw":2}`, `{"series":10}`, `{"draw":1}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		spec, err := decodeMatch(body)
		race, rerr := decodeCreateRace(body)
		if err != nil {
			checkRefusal(t, body, err)
			if rerr == nil {
				var in raceRequest
				if json.Unmarshal(body, &in) != nil || in.Code == nil && in.Bot == nil && in.Public == nil {
					t.Fatalf("%q: refused (%v), though a race takes it", body, err)
				}
			}
			return
		}
		checkAccepted(t, body)
		if rerr != nil || race != spec || !spec.random || spec.opts.Bot != "" || !spec.public {
			t.Fatalf("%q: accepted as %+v; as a race %+v, %v", body, spec, race, rerr)
		}
	})
}

// FuzzDecodeJoin checks POST /api/v1/races/{id}/join.
func FuzzDecodeJoin(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"invite":"abc"}`, `{"invite":""}`, `{"invite":null}`, `{"invite":1}`,
		`{"invite":"abc","seat":2}`, `{"invite":"\u00e9\ud800"}`, `{"invite":"a"}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		invite, err := decodeJoin(body)
		if err != nil {
			checkRefusal(t, body, err)
			return
		}
		checkAccepted(t, body)
		if invite == nil {
			return
		}
		enc := mustMarshal(t, joinRequest{Invite: invite})
		again, err := decodeJoin(enc)
		if err != nil || again == nil || *again != *invite {
			t.Fatalf("%q → %q → %s → %v, %v", body, *invite, enc, again, err)
		}
	})
}

// FuzzDecodeLinkCode checks POST /api/v1/link: an accepted code is in its
// normal form (players.LinkLen symbols of players.LinkAlphabet), and decodes to itself.
func FuzzDecodeLinkCode(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"code":"K7Q4-M2XD-9TPA"}`, `{"code":"k7q4 m2xd 9tpa"}`, `{"code":"OIL0-0000-0000"}`,
		`{"code":"K7Q4-M2XD-9TP"}`, `{"code":"K7Q4-M2XD-9TPAU"}`, `{"code":"ÄÖÜ"}`, `{"code":null}`, `{"code":1}`, `{"code":"x","y":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		code, err := decodeLinkCode(body)
		if err != nil {
			checkRefusal(t, body, err)
			return
		}
		checkAccepted(t, body)
		if len(code) != players.LinkLen || strings.Trim(code, players.LinkAlphabet) != "" {
			t.Fatalf("%q: accepted as %q, not a normal code", body, code)
		}
		again, err := decodeLinkCode(mustMarshal(t, linkRequest{Code: &code}))
		if err != nil || again != code {
			t.Fatalf("%q → %q → %q, %v", body, code, again, err)
		}
	})
}

// FuzzDecodeCheck checks POST /api/v1/games/{id}/check: only {"on": true}
// is accepted.
func FuzzDecodeCheck(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"on":true}`, `{"on":false}`, `{"on":null}`, `{"on":"yes"}`,
		`{"on":true,"off":1}`, `{"on":true}]`, ` {"on" : true} `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if err := decodeCheck(body); err != nil {
			checkRefusal(t, body, err)
			return
		}
		checkAccepted(t, body)
		var in checkRequest
		if json.Unmarshal(body, &in) != nil || in.On == nil || !*in.On {
			t.Fatalf("%q accepted", body)
		}
	})
}
