package httpapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"dsol/internal/apitest"
	"dsol/internal/game"
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
