package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"dsol/internal/apitest"
	"dsol/internal/game"
	"dsol/internal/protocol"
	"dsol/internal/rating"
	"dsol/internal/service"
)

// TestOpenAPIMatchesRoutes walks the chi routes: every route is documented
// with its method, and every documented operation is routed.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
		Comps   struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Properties map[string]struct {
						Enum []string `json:"enum"`
					} `json:"properties"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi %q", doc.OpenAPI)
	}
	routed := map[string]bool{}
	r := newServer(Deps{}).routes()
	err := chi.Walk(r, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		key := strings.ToLower(method) + " " + route
		routed[key] = true
		if _, ok := doc.Paths[route][strings.ToLower(method)]; !ok {
			t.Errorf("route %s %s is not in openapi.json", method, route)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for path, ops := range doc.Paths {
		for method := range ops {
			if method == "parameters" {
				continue
			}
			if !routed[method+" "+path] {
				t.Errorf("openapi.json documents %s %s, which has no route", strings.ToUpper(method), path)
			}
		}
	}
	// The documented error codes are exactly the server's.
	got := doc.Comps.Schemas["Error"].Properties["error"].Properties["code"].Enum
	var want []string
	for _, c := range game.Codes() {
		want = append(want, string(c))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("documented error codes %v, want %v", got, want)
	}
}

func TestOpenAPIServed(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	var doc map[string]any
	ts.anon().MustJSON(t, "GET", "/api/v1/openapi.json", nil, 200, &doc)
	if doc["openapi"] != "3.1.0" {
		t.Fatalf("doc %v", doc["openapi"])
	}
}

// TestOpenAPISoloView: the documented solo view has exactly the keys of a
// real one, and the options of a new game are the ones decodeCreateGame
// reads.
func TestOpenAPISoloView(t *testing.T) {
	var doc struct {
		Comps struct {
			Schemas struct {
				SoloView struct {
					Required   []string                   `json:"required"`
					Properties map[string]json.RawMessage `json:"properties"`
				}
				NewGame struct {
					OneOf []struct {
						Properties map[string]json.RawMessage `json:"properties"`
					} `json:"oneOf"`
				}
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		t.Fatal(err)
	}
	ts := mustServer(t, apitest.SQLite(t))
	// The keys of a solo view, of a daily game's view (daily, no code) and
	// of a daily game's once its day has closed (closed).
	var v, dv, cv map[string]json.RawMessage
	p := ts.mustPlayer(t)
	p.MustJSON(t, "POST", "/api/v1/games", map[string]any{"winnable": true}, 201, &v)
	p.MustJSON(t, "POST", "/api/v1/daily/D1N", nil, 201, &dv)
	ts.clock.Advance(24 * time.Hour)
	var id string
	json.Unmarshal(dv["id"], &id)
	p.MustJSON(t, "GET", "/api/v1/games/"+id, nil, 200, &cv)
	var keys, documented []string
	for k := range v {
		keys = append(keys, k)
	}
	for _, other := range []map[string]json.RawMessage{dv, cv} {
		for k := range other {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	for k := range doc.Comps.Schemas.SoloView.Properties {
		documented = append(documented, k)
	}
	slices.Sort(keys)
	slices.Sort(documented)
	if !slices.Equal(keys, documented) {
		t.Errorf("a solo view has %v; the document %v", keys, documented)
	}
	if !slices.Contains(doc.Comps.Schemas.SoloView.Required, "winnable") {
		t.Error("winnable is not a required key of SoloView")
	}
	var options []string
	for k := range doc.Comps.Schemas.NewGame.OneOf[0].Properties {
		options = append(options, k)
	}
	slices.Sort(options)
	if want := []string{"draw", "scoring", "winnable"}; !slices.Equal(options, want) {
		t.Errorf("documented options %v, want %v", options, want)
	}
}

// schemaProp is a property of a schema of openapi.json, as far as the tests
// read it.
type schemaProp struct {
	Type        any    `json:"type"` // a name, or a list of names
	Enum        []any  `json:"enum"`
	Minimum     *int   `json:"minimum"`
	Example     any    `json:"example"`
	Description string `json:"description"`
}

// schema is a schema of openapi.json, as far as the tests read it.
type schema struct {
	AdditionalProperties *bool                 `json:"additionalProperties"`
	Properties           map[string]schemaProp `json:"properties"`
}

// mustSchemas returns the schemas of openapi.json by name.
func mustSchemas(tb testing.TB) map[string]schema {
	tb.Helper()
	var doc struct {
		Comps struct {
			Schemas map[string]schema `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		tb.Fatal(err)
	}
	return doc.Comps.Schemas
}

// jsonKeys returns the JSON keys of the fields of struct type t, sorted.
func jsonKeys(t reflect.Type) []string {
	var keys []string
	for f := range t.Fields() {
		if k, _, _ := strings.Cut(f.Tag.Get("json"), ","); k != "" && k != "-" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// sample is a valid value of a documented property, alone in a body: its
// first enum value, its example, its minimum, true or 0.
func sample(p schemaProp) any {
	switch {
	case len(p.Enum) > 0:
		return p.Enum[0]
	case p.Example != nil:
		return p.Example
	case p.Minimum != nil:
		return *p.Minimum
	case p.Type == "boolean":
		return true
	}
	return 0
}

// enumOf returns a documented enum as text, sorted.
func enumOf(p schemaProp) []string {
	var got []string
	for _, v := range p.Enum {
		got = append(got, fmt.Sprint(v))
	}
	slices.Sort(got)
	return got
}

// words returns the words of a deal option's table, sorted.
func words(ws []flagWord) []string {
	var got []string
	for _, w := range ws {
		got = append(got, w.word)
	}
	slices.Sort(got)
	return got
}

// TestOpenAPIRaceOptions: the bodies of POST /api/v1/races (NewRace), POST
// /api/v1/match (MatchRequest) and POST /api/v1/games (NewGame's random
// form) as documented and as decoded. NewRace documents every key the
// decoder reads; MatchRequest exactly those decodeMatch accepts, each
// tried alone; every enum is the table or list of words the decoders
// check against, each of its values is accepted, and a value outside it
// is refused.
func TestOpenAPIRaceOptions(t *testing.T) {
	schemas := mustSchemas(t)
	newRace, match := schemas["NewRace"], schemas["MatchRequest"]
	for _, name := range []string{"NewRace", "MatchRequest"} {
		if ap := schemas[name].AdditionalProperties; ap == nil || *ap {
			t.Errorf("%s does not say additionalProperties: false; the decoder refuses unknown keys", name)
		}
	}
	fields := jsonKeys(reflect.TypeFor[raceRequest]())
	if got := slices.Sorted(maps.Keys(newRace.Properties)); !slices.Equal(got, fields) {
		t.Errorf("NewRace documents %v; the decoder reads %v", got, fields)
	}
	var accepted []string
	for _, k := range fields {
		body := mustMarshal(t, map[string]any{k: sample(newRace.Properties[k])})
		if _, err := decodeCreateRace(body); err != nil {
			t.Errorf("POST /api/v1/races %s: %v", body, err)
		}
		if _, err := decodeMatch(body); err == nil {
			accepted = append(accepted, k)
		} else if e := protocol.AsError(err); e.Code != game.BadRequest {
			t.Errorf("POST /api/v1/match %s: %v, want bad_request", body, err)
		}
	}
	if got := slices.Sorted(maps.Keys(match.Properties)); !slices.Equal(got, accepted) {
		t.Errorf("MatchRequest documents %v; decodeMatch accepts %v", got, accepted)
	}
	for k, p := range match.Properties {
		if q := newRace.Properties[k]; !slices.Equal(enumOf(p), enumOf(q)) {
			t.Errorf("MatchRequest's %s takes %v, NewRace's %v", k, enumOf(p), enumOf(q))
		}
	}

	var drawWords []string
	for _, d := range draws {
		drawWords = append(drawWords, strconv.Itoa(d))
	}
	slices.Sort(drawWords)
	sorted := func(s []string) []string { return slices.Sorted(slices.Values(s)) }
	newGame := mustNewGame(t)
	for _, c := range []struct {
		schema, key string
		prop        schemaProp
		want        []string
		decode      func([]byte) error
	}{
		{"NewRace", "draw", newRace.Properties["draw"], drawWords, raceDecoder},
		{"NewRace", "redeal", newRace.Properties["redeal"], words(redeals), raceDecoder},
		{"NewRace", "decks", newRace.Properties["decks"], words(decks), raceDecoder},
		{"NewRace", "turns", newRace.Properties["turns"], sorted(game.RaceTurns()), raceDecoder},
		{"NewRace", "first", newRace.Properties["first"], sorted(game.RaceFirsts()), raceDecoder},
		{"NewRace", "bot", newRace.Properties["bot"], sorted(service.BotSpeeds()), raceDecoder},
		{"MatchRequest", "draw", match.Properties["draw"], drawWords, matchDecoder},
		{"MatchRequest", "redeal", match.Properties["redeal"], words(redeals), matchDecoder},
		{"MatchRequest", "decks", match.Properties["decks"], words(decks), matchDecoder},
		{"MatchRequest", "turns", match.Properties["turns"], sorted(game.RaceTurns()), matchDecoder},
		{"MatchRequest", "first", match.Properties["first"], sorted(game.RaceFirsts()), matchDecoder},
		{"NewGame", "draw", newGame["draw"], drawWords, gameDecoder},
		{"NewGame", "scoring", newGame["scoring"], words(scorings), gameDecoder},
	} {
		t.Run(c.schema+"."+c.key, func(t *testing.T) {
			if got := enumOf(c.prop); !slices.Equal(got, c.want) {
				t.Fatalf("documented %v, the decoder takes %v", got, c.want)
			}
			for _, v := range append(slices.Clone(c.prop.Enum), "none of these", 2) {
				body := mustMarshal(t, map[string]any{c.key: v})
				err := c.decode(body)
				if documented := slices.Contains(c.prop.Enum, v); documented != (err == nil) {
					t.Errorf("%s: %v (documented: %v)", body, err, documented)
				}
			}
		})
	}
}

func raceDecoder(b []byte) error  { _, err := decodeCreateRace(b); return err }
func matchDecoder(b []byte) error { _, err := decodeMatch(b); return err }
func gameDecoder(b []byte) error  { _, err := decodeCreateGame(b); return err }

// mustNewGame returns the properties of the random form of NewGame.
func mustNewGame(tb testing.TB) map[string]schemaProp {
	tb.Helper()
	var doc struct {
		Comps struct {
			Schemas struct {
				NewGame struct {
					OneOf []struct {
						Properties map[string]schemaProp `json:"properties"`
					} `json:"oneOf"`
				}
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		tb.Fatal(err)
	}
	for _, f := range doc.Comps.Schemas.NewGame.OneOf {
		if _, ok := f.Properties["scoring"]; ok {
			return f.Properties
		}
	}
	tb.Fatal("NewGame has no form with scoring")
	return nil
}

// TestOpenAPIRatings: every rating the document describes is the Glicko-2
// rating of package rating with its starting values, and nothing speaks
// of another system.
func TestOpenAPIRatings(t *testing.T) {
	start := rating.Start()
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	schemas := mustSchemas(t)
	for _, c := range []struct {
		schema, key string
		says        []string
	}{
		{"RaceStats", "rating", []string{"Glicko-2", num(start.Rating), num(start.Deviation), num(start.Volatility), "rated race", "Never reset"}},
		{"Me", "rating", []string{"Glicko-2", num(start.Rating)}},
		{"Me", "ratingDeviation", []string{"deviation", num(start.Deviation)}},
	} {
		d := schemas[c.schema].Properties[c.key].Description
		for _, w := range c.says {
			if !strings.Contains(d, w) {
				t.Errorf("%s.%s does not say %q: %q", c.schema, c.key, w, d)
			}
		}
	}
	var lobby struct {
		Comps struct {
			Schemas struct {
				Lobby struct {
					Properties struct {
						Races struct {
							Items struct {
								Properties map[string]schemaProp `json:"properties"`
							} `json:"items"`
						} `json:"races"`
					} `json:"properties"`
				}
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPIDoc, &lobby); err != nil {
		t.Fatal(err)
	}
	if d := lobby.Comps.Schemas.Lobby.Properties.Races.Items.Properties["creatorRating"].Description; !strings.Contains(d, "Glicko-2") || !strings.Contains(d, num(start.Rating)) {
		t.Errorf("a lobby race's creatorRating: %q", d)
	}
	for _, old := range []string{"Elo", "K = "} {
		if i := bytes.Index(openAPIDoc, []byte(old)); i >= 0 {
			t.Errorf("openapi.json speaks of %q: …%s…", old, openAPIDoc[max(0, i-80):min(len(openAPIDoc), i+80)])
		}
	}
}
