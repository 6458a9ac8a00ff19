package e2e_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp/kb"

	"dsol/internal/cards"
	"dsol/internal/solver"
)

// wonLine finds a draw-1 Normal deal the solver wins within a small budget
// and returns its code and the winning line.
func wonLine(t *testing.T) (string, []any) {
	t.Helper()
	s := solver.New()
	for deal := uint64(1); deal < 200; deal++ {
		code := cards.Code{Kind: cards.Solo, Draw: 1, Deal: deal}
		res := s.SolveCode(code, solver.Options{MaxPositions: 200_000})
		if res.Verdict != solver.Won {
			continue
		}
		line := make([]any, len(res.Moves))
		for i, a := range res.Moves {
			line[i] = a
		}
		return code.String(), line
	}
	t.Fatal("the solver won none of 200 deals")
	return "", nil
}

// playLine posts the actions of line to game id, in order, from the page.
func (p *page) playLine(id string, line []any) {
	p.t.Helper()
	j, _ := json.Marshal(line)
	var bad string
	p.eval(fmt.Sprintf(`(async () => {
  for (const a of %s) {
    const r = await fetch('/api/v1/games/%s/actions', {method: 'POST', credentials: 'same-origin', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({action: a})});
    if (!r.ok) return r.status + ' ' + await r.text();
  }
  return '';
})()`, j, id), &bad)
	if bad != "" {
		p.t.Fatalf("playing the line: %s", bad)
	}
}

// TestReplayViewer: a won solo game is watched again from My games, and by
// another player from its shared link: the deal, a step on, the slider to
// any move, play to the end, and Play this deal; a game still in play is
// refused with a word why. A race over is watched as a spectator saw it,
// both boards. In each combo of eachCombo (screenshots and axe-core on My
// games and both replays) the game's player and then another one.
func TestReplayViewer(t *testing.T) {
	code, line := wonLine(t)
	srv := startServer(t)
	eachCombo(t, func(t *testing.T, c combo) { replayViewer(t, srv, c, code, line) })
}

func replayViewer(t *testing.T, srv *server, c combo, code string, line []any) {
	var g struct{ ID string }
	n := len(line)
	for i := range 2 {
		p := c.page(t, srv)
		p.open("/")
		p.onScreen("home")
		if i == 0 {
			p.apiJSON("POST", "/api/v1/games", map[string]string{"code": code}, &g)
			p.open("/?replay=" + g.ID)
			p.onScreen("home")
			p.waitJS(`document.querySelector('#toast').textContent.includes('finished')`, "the word that the game is not finished")
			p.playLine(g.ID, line)
			// My games lists it, and Watch opens its replay
			p.tap(`[data-testid=home-games]`)
			p.waitJS(fmt.Sprintf(`!!document.querySelector('[data-testid=games-list] [data-game=%q]')`, g.ID), "the won game in My games")
			p.shot("games-"+c.name, "list")
			p.axe("My games "+c.name, "#dlg-games")
			p.tap(fmt.Sprintf(`[data-testid=games-list] [data-game=%q]`, g.ID))
		} else {
			p.open("/?replay=" + g.ID) // another player, by the shared link
		}
		p.waitJS(`document.body.dataset.mode === "replay" && document.body.dataset.ready === "1" && document.body.dataset.seq === "0"`, "the replay at the deal")
		if c := p.text(`[data-testid=replay-code]`); c != code {
			t.Fatalf("the replay shows code %q, want %s", c, code)
		}
		if got := p.count(`#table [data-pile] .card.up[data-card]`); got != 9 {
			t.Fatalf("%d face-up cards at the deal, want 9", got)
		}
		if pos := p.text(`[data-testid=replay-pos]`); pos != "0 / "+strconv.Itoa(n) {
			t.Fatalf("position %q", pos)
		}
		p.tap(`[data-testid=replay-next]`)
		p.waitJS(`document.body.dataset.seq === "1"`, "one move on")
		p.key(kb.ArrowRight)
		p.waitJS(`document.body.dataset.seq === "2"`, "one more by the arrow key")
		p.key(kb.ArrowLeft)
		p.waitJS(`document.body.dataset.seq === "1"`, "one back by the arrow key")
		p.eval(fmt.Sprintf(`(() => { const r = document.querySelector('[data-testid=replay-range]'); r.value = %d; r.dispatchEvent(new Event('input')); return true })()`, n-3), nil)
		p.waitJS(fmt.Sprintf(`document.body.dataset.seq === "%d"`, n-3), "the slider to three moves before the end")
		p.eval(`(document.querySelector('[data-testid=replay-speed]').value = '4', document.querySelector('[data-testid=replay-speed]').dispatchEvent(new Event('change')), true)`, nil)
		p.tap(`[data-testid=replay-play]`)
		p.waitJS(fmt.Sprintf(`document.body.dataset.seq === "%d" && document.querySelector('[data-testid=replay-play]').getAttribute('aria-pressed') === 'false'`, n), "played to the end, and paused there")
		if up := p.count(`#table [data-pile^=f] .card.up[data-card]`); up == 0 {
			t.Fatal("no card on the foundations at the end")
		}
		pre := fmt.Sprintf("replay-%s-%d", c.name, i+1)
		p.shot(pre, "solo")
		p.axe("the solo replay "+pre, "[data-testid=replay]")

		// Play this deal: a new game of the same code
		p.tap(`[data-testid=replay-deal]`)
		p.onScreen("solo")
		if c := p.text(`[data-testid=code]`); c != code {
			t.Fatalf("Play this deal dealt %s, want %s", c, code)
		}

		// a race against the computer, resigned: its replay shows both boards
		var r struct{ ID string }
		p.apiJSON("POST", "/api/v1/races", map[string]string{"bot": "slow"}, &r)
		p.apiJSON("POST", "/api/v1/games/"+r.ID+"/actions", map[string]any{"action": map[string]string{"type": "draw"}}, nil)
		p.apiJSON("POST", "/api/v1/games/"+r.ID+"/actions", map[string]any{"action": map[string]string{"type": "resign"}}, nil)
		p.open("/?replay=" + r.ID)
		p.waitJS(`document.body.dataset.mode === "replay" && document.body.dataset.kind === "race" && document.body.dataset.ready === "1"`, "the race replay")
		if got := p.count(`[data-testid=replay] [data-board] [data-pile] .card.up[data-card]`); got != 14 {
			t.Fatalf("%d face-up cards on the race boards at the deal, want 14", got)
		}
		p.tap(`[data-testid=replay-last]`)
		p.waitJS(`document.querySelector('[data-testid=replay-pos]').textContent.startsWith(document.querySelector('[data-testid=replay-range]').max + ' /')`, "the race's end")
		p.shot(pre, "race")
		p.axe("the race replay "+pre, "[data-testid=replay]")
	}
}
