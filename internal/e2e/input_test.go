package e2e_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"dsol/internal/cards"
)

// key presses keys (kb names for arrows, Enter, Escape) on the focused element.
func (p *page) key(keys string, mods ...chromedp.Modifier) {
	p.t.Helper()
	p.run(chromedp.KeyEvent(keys, chromedp.KeyModifiers(mods...)))
}

// settleSeq waits until the page shows seq, then a little longer (past the
// double-tap window), and fails if the game went on: one key, one action.
func (p *page) settleSeq(seq int, what string) {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`+document.body.dataset.seq === %d`, seq), what)
	time.Sleep(450 * time.Millisecond)
	if got := p.apiView().Seq; got != seq {
		p.t.Fatalf("%s: the game is at seq %d, want %d (one key, one action)", what, got, seq)
	}
}

// keyListeners counts the keydown listeners on the window and the document,
// so that a test can tell that a mode left none behind.
const keyListeners = `(() => {
  const live = new Set();
  const add = EventTarget.prototype.addEventListener, rm = EventTarget.prototype.removeEventListener;
  const mine = (t, type) => type === 'keydown' && (t === window || t === document);
  EventTarget.prototype.addEventListener = function (type, fn, o) { if (mine(this, type)) live.add(fn); return add.call(this, type, fn, o); };
  EventTarget.prototype.removeEventListener = function (type, fn, o) { if (mine(this, type)) live.delete(fn); return rm.call(this, type, fn, o); };
  window.__keydown = () => live.size;
})();`

func TestSoloKeyboard(t *testing.T) {
	var from, to, ace int
	code := soloCode(t, "DS1-D1N", func(tops []cards.Card) bool {
		var ok bool
		if from, to, ok = columnMove(tops); !ok {
			return false
		}
		ace, ok = aceTop(tops)
		return ok && ace != from && ace != to
	})
	srv := startServer(t)
	p := openSolo(t, srv, desktop, code)
	start := p.checkShown()
	card := start.Columns[from].Up[0]

	// D draws
	p.key("d")
	p.settleSeq(1, "the draw by D")
	if v := p.checkShown(); v.Stock != start.Stock-1 || len(v.Waste) != 1 {
		t.Fatalf("after D: %+v", v)
	}
	// the arrows move the focus from pile to pile
	p.key(kb.ArrowRight)
	p.waitJS(`document.activeElement?.closest('[data-pile]')?.dataset.pile === "w"`, "the focus on the waste")

	// a column's number, Enter picks up, another column's number, Enter puts down
	p.key(fmt.Sprint(from + 1))
	p.key(kb.Enter)
	p.waitJS(fmt.Sprintf(`document.querySelector('%s .card.top').classList.contains('sel')`, colSel(from)), "the card picked up")
	p.key(fmt.Sprint(to + 1))
	p.key(kb.Enter)
	p.settleSeq(2, "the move by the keyboard")
	if v := p.checkShown(); len(v.Columns[to].Up) != 2 || v.Columns[to].Up[1] != card {
		t.Fatalf("after the keyboard move of %s from c%d to c%d: %+v", card, from+1, to+1, v)
	}
	if n := p.count(`#table .card.sel`); n != 0 {
		t.Fatalf("%d cards still selected after the move", n)
	}
	// U undoes it; Esc drops a selection
	p.key("u")
	p.settleSeq(3, "the undo by U")
	if v := p.checkShown(); len(v.Columns[from].Up) != 1 || v.Columns[from].Up[0] != card {
		t.Fatalf("after U: %+v", v)
	}
	p.key(fmt.Sprint(from + 1))
	p.key(kb.Enter)
	p.waitJS(`document.querySelectorAll('#table .card.sel').length === 1`, "a card picked up")
	p.key(kb.Escape)
	p.waitJS(`document.querySelectorAll('#table .card.sel').length === 0`, "the selection dropped by Esc")

	// F sends the card under the cursor to a foundation, T to the best column
	p.key(fmt.Sprint(ace + 1))
	p.key("f")
	p.settleSeq(4, "the ace up by F")
	p.key(fmt.Sprint(from + 1))
	p.key("t")
	p.settleSeq(5, "the move by T")
	v := p.checkShown()
	aceCard := start.Columns[ace].Up[0]
	if f := v.Foundations[strings.Index("SHDC", aceCard[1:])*2]; len(f) != 1 || f[0] != aceCard {
		t.Fatalf("after F on %s: %+v", aceCard, v)
	}
	moved := false
	for i, c := range v.Columns {
		moved = moved || (i != from && len(c.Up) > 1 && c.Up[len(c.Up)-1] == card)
	}
	if !moved {
		t.Fatalf("after T on %s: %+v", card, v)
	}
	// Ctrl+Z undoes too
	p.key("z", chromedp.ModifierCtrl)
	p.settleSeq(6, "the undo by Ctrl+Z")
	if v := p.checkShown(); v.Columns[from].Up[len(v.Columns[from].Up)-1] != card {
		t.Fatalf("after Ctrl+Z: %+v", v)
	}
}

func TestRaceKeyboard(t *testing.T) {
	code, ace, two := mirroredCode(t)
	srv := startServer(t)
	a, b := newPage(t, srv, desktop), newPage(t, srv, desktop)
	v := startRace(t, a, b, nil, map[string]any{"code": code, "turns": "simultaneous", "public": false})
	aceCard := a.raceView(v.ID).Seats[0].Columns[ace].Up[0]
	suit := aceCard[1:]
	slot := strings.Index("SHDC", suit) * 2

	// A's column number and F: the ace goes up, for both
	a.key(fmt.Sprint(ace + 1))
	a.key("f")
	want := make([]string, 8)
	want[slot] = "A" + suit + "/1 1"
	a.sameFound("A", want)
	b.sameFound("B", want)

	// D draws one card from A's stock, once
	stock := func() int {
		var n int
		a.eval(`+document.querySelector('#race [data-board="me"] [data-pile="s"]').dataset.count`, &n)
		return n
	}
	before := stock()
	a.key("d")
	a.waitJS(fmt.Sprintf(`+document.querySelector('#race [data-board="me"] [data-pile="s"]').dataset.count === %d`, before-1), "the draw by D")
	time.Sleep(450 * time.Millisecond)
	if got := stock(); got != before-1 {
		t.Fatalf("A's stock %d after one D, want %d", got, before-1)
	}

	// pick up the 2 with Enter, go to a foundation (W, then the arrow) and put it down
	a.key(fmt.Sprint(two + 1))
	a.key(kb.Enter)
	a.waitJS(fmt.Sprintf(`document.querySelector('%s').classList.contains('sel')`, fmt.Sprintf(myCard, two+1)), "the 2 picked up")
	a.key("w")
	a.key(kb.ArrowRight)
	a.waitJS(`document.activeElement?.closest('[data-pile]')?.dataset.pile === "f1"`, "the cursor on the first foundation")
	a.key(kb.Enter)
	want[slot] = "2" + suit + "/1 2"
	a.sameFound("A", want)
	b.sameFound("B", want)
	if got := a.raceView(v.ID).found(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("API foundations %q, want %q", got, want)
	}
}

// TestModeSwitchKeysOnce goes from a solo game to the lobby and back (by the
// first screen's Continue) twice,
// and from the lobby to a race and back twice, by the page's own links and
// buttons: each switch disposes of the mode it leaves, so one key acts once
// and no keydown listener is left behind.
func TestModeSwitchKeysOnce(t *testing.T) {
	srv := startServer(t)
	p := newPage(t, srv, desktop)
	p.onNewDocument(keyListeners)
	p.open("/?code=DS1-D1N-AAAAAAB")
	p.waitJS(`document.body.dataset.mode === "solo" && document.body.dataset.seq === "0"`, "the solo table")
	id := p.gameID()
	var solo int
	p.eval(`window.__keydown()`, &solo)
	for i := 0; i < 2; i++ {
		p.tap(`[data-testid=new]`)
		p.waitJS(`document.querySelector('#dlg-new').open`, "the new-game dialog")
		p.tap(`[data-testid=race-mode]`)
		p.waitJS(`document.body.dataset.status === "lobby" && !!document.querySelector('[data-testid=solo-link]')`, "the lobby")
		// the lobby's link leads to the first screen, and Continue back to the game
		p.tap(`[data-testid=solo-link]`)
		p.waitJS(`document.body.dataset.mode === "home" && !document.querySelector('[data-testid=continue]').hidden`, "the first screen")
		p.tap(`[data-testid=continue]`)
		p.waitJS(fmt.Sprintf(`!!document.querySelector('#dlg-resume [data-game=%q]')`, id), "the unfinished game listed")
		p.tap(fmt.Sprintf(`#dlg-resume [data-game=%q]`, id))
		p.waitJS(fmt.Sprintf(`document.body.dataset.mode === "solo" && document.body.dataset.ready === "1" && new URLSearchParams(location.search).get('game') === %q`, id), "the solo game again")
	}
	var n int
	if p.eval(`window.__keydown()`, &n); n != solo {
		t.Fatalf("%d keydown listeners after switching to the lobby and back twice, %d before", n, solo)
	}
	p.key("d")
	p.settleSeq(1, "one draw by D after the switches")

	// the lobby, a race against the computer, back to the lobby, again
	p.tap(`[data-testid=new]`)
	p.waitJS(`document.querySelector('#dlg-new').open`, "the new-game dialog")
	p.tap(`[data-testid=race-mode]`)
	p.waitJS(`document.body.dataset.status === "lobby"`, "the lobby")
	var raceN int
	for i := 0; i < 2; i++ {
		p.eval(`(document.querySelector('[data-testid=race-bot-speed]').value = 'slow', true)`, nil)
		p.tap(`[data-testid=race-bot]`)
		p.waitJS(`document.body.dataset.status === "playing" && document.body.dataset.seat === "1" && !!document.querySelector('#race [data-board="me"] [data-pile="s"]')`, "the race against the computer")
		p.eval(`window.__keydown()`, &n)
		if i == 0 {
			raceN = n
		} else if n != raceN {
			t.Fatalf("%d keydown listeners in the second race, %d in the first", n, raceN)
		}
		if i == 1 {
			break
		}
		p.tap(`[data-testid=to-lobby]`)
		p.waitJS(`document.body.dataset.status === "lobby" && !document.querySelector('#race .rgame')`, "the lobby again")
	}
	rid := ""
	p.eval(`new URLSearchParams(location.search).get('race')`, &rid)
	mine := func() int {
		var v struct {
			Seats []struct {
				Stock int `json:"stock"`
			} `json:"seats"`
		}
		p.apiJSON("GET", "/api/v1/games/"+rid, nil, &v)
		return v.Seats[0].Stock
	}
	before := mine()
	p.key("d")
	p.waitJS(fmt.Sprintf(`+document.querySelector('#race [data-board="me"] [data-pile="s"]').dataset.count === %d`, before-1), "one draw in the race")
	time.Sleep(450 * time.Millisecond)
	if got := mine(); got != before-1 {
		t.Fatalf("my stock %d after one D in the race, want %d", got, before-1)
	}
}
