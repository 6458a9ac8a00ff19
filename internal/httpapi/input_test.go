package httpapi

import (
	"encoding/json"
	"strings"
	"testing"

	"dsol/internal/apitest"
	"dsol/internal/game"
)

// TestStrictBodies checks that every JSON body is read strictly: text that
// is not UTF-8, an unpaired surrogate escape and a key given twice, at the
// top or nested, are refused with 400 bad_request, and nothing changes.
func TestStrictBodies(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	c := ts.mustPlayer(t)
	g := c.mustGame(t, "DS1-D1N-AAAAAAB")
	actions := "/api/v1/games/" + g.ID + "/actions"
	for _, tc := range []struct{ method, path, body string }{
		{"PATCH", "/api/v1/me", "{\"name\":\"Ad\xffa\"}"},
		{"PATCH", "/api/v1/me", "{\"name\":\"Ada\xc3\"}"},
		{"PATCH", "/api/v1/me", `{"name":"Ada\ud800"}`},
		{"PATCH", "/api/v1/me", `{"name":"Bob","name":"Eve"}`},
		{"PATCH", "/api/v1/me", `{"name":"Bob","\u006eame":"Eve"}`},
		{"POST", "/api/v1/players", "{\"name\":\"\xff\"}"},
		{"POST", "/api/v1/players", `{"name":"Bob","name":"Eve"}`},
		{"POST", "/api/v1/games", `{"draw":1,"draw":3}`},
		{"POST", "/api/v1/games", "{\"scoring\":\"vegas\xff\"}"},
		{"POST", "/api/v1/races", `{"turns":"alternating","first":"creator","turns":"simultaneous"}`},
		{"POST", "/api/v1/races/" + g.ID + "/join", `{"invite":"a","invite":"b"}`},
		{"POST", actions, `{"action":{"type":"draw"},"seq":0,"seq":0}`},
		{"POST", actions, `{"action":{"type":"draw","type":"undo"}}`},
		{"POST", actions, `{"action":{"type":"draw","id":"a","id":"a"}}`},
		{"POST", actions, "{\"action\":{\"type\":\"draw\"},\"id\":\"a\xff\"}"},
		{"POST", actions, "{\"action\":{\"type\":\"draw\",\"id\":\"\xe2\x82\"}}"},
		{"POST", actions, `{"action":{"type":"draw","id":""}}`},
	} {
		c.MustError(t, tc.method, tc.path, tc.body, 400, game.BadRequest)
	}
	var me playerJSON
	c.MustJSON(t, "GET", "/api/v1/me", nil, 200, &me)
	var now view
	c.MustJSON(t, "GET", "/api/v1/games/"+g.ID, nil, 200, &now)
	if me.Name != "Ada" || now.Seq != g.Seq {
		t.Fatalf("after refused bodies: name %q, seq %d → %d", me.Name, g.Seq, now.Seq)
	}
}

// TestErrorsQuoteLittle checks that an error quotes at most 64 bytes of what
// the client sent, cut at a rune boundary and marked with "…", however long
// the bad code, key, number, action type or path.
func TestErrorsQuoteLittle(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t), func(c *Config) { c.MaxBodyBytes = 1 << 20 })
	c := ts.mustPlayer(t)
	g := c.mustGame(t, "DS1-D1N-AAAAAAB")
	z := strings.Repeat("Z", 100<<10)
	euro := strings.Repeat("€", 100<<10/3)
	for _, tc := range []struct {
		method, path, body string
		status             int
		code               game.Code
		unit               string // what the long input repeats
	}{
		{"GET", "/api/v1/codes/" + z, "", 400, game.BadCode, "Z"},
		{"GET", "/api/v1/codes/DS1-D1N-" + z, "", 400, game.BadCode, "Z"},
		{"POST", "/api/v1/games", `{"code":"` + z + `"}`, 400, game.BadCode, "Z"},
		{"POST", "/api/v1/games", `{"code":"` + euro + `"}`, 400, game.BadCode, "€"},
		{"POST", "/api/v1/races", `{"code":"DR1-D1UI-` + z + `"}`, 400, game.BadCode, "Z"},
		{"POST", "/api/v1/games", `{"` + z + `":1}`, 400, game.BadRequest, "Z"},
		{"POST", "/api/v1/games", `{"draw":` + strings.Repeat("9", 100<<10) + `}`, 400, game.BadRequest, "9"},
		{"PATCH", "/api/v1/me", `{"name":"A","` + euro + `":1,"` + euro + `":2}`, 400, game.BadRequest, "€"},
		{"POST", "/api/v1/games/" + g.ID + "/actions", `{"action":{"type":"` + z + `"}}`, 400, game.BadRequest, "Z"},
		{"POST", "/api/v1/games/" + g.ID + "/actions", `{"action":{"type":"tap","from":"` + euro + `"}}`, 400, game.BadRequest, "€"},
		{"POST", "/api/v1/games/" + g.ID + "/actions", `{"action":{"type":"draw"},"` + z + `":1}`, 400, game.BadRequest, "Z"},
		{"GET", "/api/v1/" + z, "", 404, game.NotFound, "Z"},
	} {
		var body any
		if tc.body != "" {
			body = tc.body
		}
		status, raw := c.Do(t, tc.method, tc.path, body)
		var e errorBody
		if err := json.Unmarshal(raw, &e); err != nil || status != tc.status || e.Error.Code != tc.code {
			t.Errorf("%s %.40s…: %d %.200s, want %d %s", tc.method, tc.path, status, raw, tc.status, tc.code)
			continue
		}
		msg := e.Error.Message
		n := 64/len(tc.unit) + 1 // the shortest run of units over 64 bytes
		if len(raw) > 512 || strings.Contains(msg, strings.Repeat(tc.unit, n)) || !strings.Contains(msg, "…") ||
			strings.Contains(msg, `\x`) {
			t.Errorf("%s %.40s…: %d bytes: %.300s", tc.method, tc.path, len(raw), msg)
		}
	}
}
