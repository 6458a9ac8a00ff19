package e2e_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"dsol/internal/rating"
)

// apiClient is a player talking to the server without a browser.
type apiClient struct {
	t     *testing.T
	srv   *server
	id    string
	token string
}

func newAPIClient(t *testing.T, srv *server, name string) *apiClient {
	c := &apiClient{t: t, srv: srv}
	var p struct{ ID, Token string }
	c.call("POST", "/api/v1/players", map[string]string{"name": name}, &p)
	c.id, c.token = p.ID, p.Token
	return c
}

// call sends a request and decodes the answer into out; an error answer
// fails the test. It returns the status.
func (c *apiClient) call(method, path string, body, out any) int {
	c.t.Helper()
	j, _ := json.Marshal(body)
	req, err := http.NewRequest(method, c.srv.URL+path, bytes.NewReader(j))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	res, err := c.srv.Client().Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	var raw json.RawMessage
	_ = json.NewDecoder(res.Body).Decode(&raw)
	if res.StatusCode >= 300 {
		c.t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			c.t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
	return res.StatusCode
}

// TestQuickMatch: in the lobby, the name prompt and Quick match; Quick
// match shows the waiting state (with the offer of the computer after the
// wait); a second player queuing through the API is paired with the page,
// which lands in the race; the race ends rated and the result shows the
// rating change. Screenshots and axe-core on each, on a phone and a desktop,
// light and dark; each on a server of its own, whose queue it alone joins.
func TestQuickMatch(t *testing.T) {
	eachCombo(t, func(t *testing.T, tc combo) {
		srv := startServer(t)
		a := tc.page(t, srv)
		a.open("/?mode=race")
		a.waitJS(`document.body.dataset.status === "lobby" && /\d/.test(document.querySelector('[data-testid=my-rating]').textContent)`, "the lobby with the rating")
		a.visible(`[data-testid=name-form]`, `[data-testid=quick-match]`)
		a.screenshot("quick-lobby-" + tc.name)
		a.axe("quick match lobby "+tc.name, `[data-testid=name-form]`, `[data-testid=quick]`)
		// A name the server refuses is said so; a good one is kept.
		a.eval(`document.querySelector('[data-testid=name-input]').value = 'C0mputer'`, nil)
		a.tap(`[data-testid=name-save]`)
		a.waitJS(`!document.querySelector('[data-testid=name-error]').hidden`, "the refusal of the bot's name")
		a.eval(`document.querySelector('[data-testid=name-input]').value = 'Ada Lovelace'`, nil)
		a.tap(`[data-testid=name-save]`)
		a.waitJS(`document.querySelector('[data-testid=name-form]').hidden`, "the name saved")
		var me struct{ ID, Name string }
		a.apiJSON("GET", "/api/v1/me", nil, &me)
		if me.Name != "Ada Lovelace" {
			t.Fatalf("name %q", me.Name)
		}

		b := newAPIClient(t, srv, "Bob "+tc.name)

		a.tap(`[data-testid=quick-match]`)
		a.waitJS(`!document.querySelector('[data-testid=quick-waiting]').hidden`, "the waiting state")
		a.waitJS(`!document.querySelector('[data-testid=quick-bot]').hidden`, "the offer of the computer after the wait")
		if got := a.text(`[data-testid=quick-elapsed]`); got == "0:00" {
			t.Errorf("elapsed %q after the wait", got)
		}
		a.visible(`[data-testid=quick-cancel]`, `[data-testid=quick-bot]`)
		a.screenshot("quick-waiting-" + tc.name)
		a.axe("quick match waiting "+tc.name, `[data-testid=quick]`)
		for deadline := time.Now().Add(10 * time.Second); srv.games.MatchWaiting() != 1; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the page's player is not in the queue")
			}
		}

		var v struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		}
		if st := b.call("POST", "/api/v1/match", map[string]any{"draw": 1, "redeal": "unlimited", "decks": "independent",
			"turns": "simultaneous", "soloOutBonus": false, "series": 1}, &v); st != http.StatusCreated || v.Status != "playing" {
			t.Fatalf("the second player: %d %+v, want paired", st, v)
		}
		a.waitJS(fmt.Sprintf(`document.body.dataset.status === "playing" && location.search === "?race=%s"`, v.ID), "the race on the page")

		// Both play at a person's pace, long enough to be rated, then Bob
		// resigns: Ada wins, rated.
		act := func(typ string) map[string]any { return map[string]any{"action": map[string]string{"type": typ}} }
		for range rating.MinActions {
			a.apiJSON("POST", "/api/v1/games/"+v.ID+"/actions", act("draw"), nil)
			srv.Advance(2 * time.Second)
			b.call("POST", "/api/v1/games/"+v.ID+"/actions", act("draw"), nil)
			srv.Advance(2 * time.Second)
		}
		b.call("POST", "/api/v1/games/"+v.ID+"/actions", act("resign"), nil)
		a.waitJS(`document.querySelector('[data-testid=result]').open && !document.querySelector('[data-testid=result-rating]').hidden`, "the rated result")
		t.Logf("result: %q — %q", a.text(`[data-testid=result-title]`), a.text(`[data-testid=result-rating]`))
		a.waitJS(`document.getAnimations().every((x) => x.playState !== 'running')`, "the dialog settled") // axe reads the colours of a still fading dialog wrong
		a.fitsDialog()
		a.screenshot("quick-result-" + tc.name)
		a.axe("rated result "+tc.name, `[data-testid=result]`)
	})
}

// TestQuickMatchInPlay: a player with a race in play who asks for a quick
// match is told so and offered the way back to that race, which it opens.
// Screenshots and an accessibility check of the notice, on a phone and a
// desktop, light and dark.
func TestQuickMatchInPlay(t *testing.T) {
	eachCombo(t, func(t *testing.T, tc combo) {
		srv := startServer(t)
		a := tc.page(t, srv)
		a.open("/?mode=race")
		a.waitJS(`document.body.dataset.status === "lobby"`, "the lobby")
		var r struct{ ID string }
		a.apiJSON("POST", "/api/v1/races", map[string]any{"bot": "slow"}, &r)
		a.tap(`[data-testid=quick-match]`)
		a.waitJS(`!document.querySelector('[data-testid=in-play]').hidden`, "the race in play")
		a.visible(`[data-testid=in-play-open]`, `[data-testid=quick-match]`)
		if srv.games.MatchWaiting() != 0 {
			t.Fatal("a player with a race in play waits in the queue")
		}
		a.screenshot("quick-in-play-" + tc.name)
		a.axe("quick match with a race in play "+tc.name, `[data-testid=quick]`)
		a.tap(`[data-testid=in-play-open]`)
		a.waitJS(fmt.Sprintf(`location.search === "?race=%s" && document.body.dataset.status === "playing"`, r.ID), "the race in play on the page")
	})
}
