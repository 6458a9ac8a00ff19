package engine

import (
	"encoding/json"
	"errors"
	"testing"

	"dsol/internal/game"
)

// FuzzRaceOptions checks the stored race options: game.ParseRaceOptions
// never panics, what it accepts encodes to JSON that parses to the same
// options, and RaceOptions either maps them or refuses them with bad_request.
func FuzzRaceOptions(f *testing.F) {
	for _, s := range []string{``, `null`, `{}`, `{"turns":"simultaneous","soloOutBonus":false,"series":1}`,
		`{"turns":"alternating","first":"creator","firstSeat":1,"series":3,"turnSeconds":30}`,
		`{"turns":"alternating","first":"random","firstSeat":2,"bot":"fast","prev":"abc"}`,
		`{"turns":"sideways"}`, `{"first":"me"}`, `{"series":-4}`, `{"turns":1}`, `[]`, `{"turns":"alternating"}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		o, err := game.ParseRaceOptions(b)
		if err != nil {
			return
		}
		if o.Series < 1 {
			t.Fatalf("ParseRaceOptions(%q): series %d", b, o.Series)
		}
		enc, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		again, err := game.ParseRaceOptions(enc)
		if err != nil || again != o {
			t.Fatalf("%q → %+v → %s → %+v, %v", b, o, enc, again, err)
		}
		eo, err := RaceOptions(o)
		if err != nil {
			var e *game.Error
			if !errors.As(err, &e) || e.Code != game.BadRequest {
				t.Fatalf("Engine(%+v): %v is not a bad_request", o, err)
			}
			return
		}
		if eo.Turns.String() != o.Turns && o.Turns != "" || eo.First.String() != o.First && o.First != "" {
			t.Fatalf("Engine(%+v) = %+v", o, eo)
		}
	})
}
