package storetest

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"dsol/internal/store"
)

// appendBatch commits a batch of one to three actions of each of one to
// three games, in one AppendActions.
func (h *history) appendBatch() {
	var batch []store.Action
	seen := map[*soloGame]bool{}
	for range 1 + h.r.IntN(3) {
		g := h.pick(func(g *soloGame) bool { return !seen[g] })
		if g == nil {
			break
		}
		seen[g] = true
		var acts []store.Action
		for range 1 + h.r.IntN(3) {
			acts = append(acts, h.next(g))
		}
		if h.r.IntN(6) == 0 {
			slices.Reverse(acts) // the later action first: the latest is still the one with the highest seq
		}
		batch = append(batch, acts...)
	}
	if len(batch) > 0 {
		mustAppend(h.t, h.s, batch...)
	}
}

// next returns the game's next action, as the table would make it.
func (h *history) next(g *soloGame) store.Action {
	gap := time.Duration(h.r.IntN(20_000_000)) * time.Microsecond
	switch h.r.IntN(8) {
	case 0:
		gap += store.MaxGap + time.Duration(h.r.IntN(300))*time.Second // a pause longer than the cap
	case 1:
		gap = 0
	}
	at := g.last.Add(gap)
	if g.seq == 0 {
		at = g.g.CreatedAt.Add(gap)
	} else {
		g.play = store.AddGap(g.play, g.last, at)
	}
	g.seq++
	g.last = at
	g.score += h.r.IntN(61) - 20
	g.moves++
	a := NewAction(g.g.ID, g.seq, 1, "")
	a.At = at
	switch h.r.IntN(14) {
	case 0:
		a.Action = []byte(`{"type":"undo"}`)
	case 1:
		a.Action = []byte(`{"type":"finish"}`)
	}
	if h.r.IntN(25) > 0 { // now and then an action without a tally, as stored before tallies
		a.Tally = &store.Tally{Score: g.score, Moves: g.moves, Play: g.play}
	}
	if h.tallies[g.g.ID] == nil {
		h.tallies[g.g.ID] = map[int64]*store.Tally{}
	}
	h.tallies[g.g.ID][g.seq] = a.Tally
	return a
}

func (h *history) update(g *soloGame, status string) {
	g.g.Status = status
	g.g.UpdatedAt = g.last
	if g.seq == 0 {
		g.g.UpdatedAt = g.g.CreatedAt
	}
	if err := h.s.UpdateGame(ctxOf(h.t), g.g); err != nil {
		h.t.Fatalf("%s step %d: UpdateGame(%s): %v", h.name, h.step, g.g.ID, err)
	}
}

// win wins a game in play, mostly one with actions.
func (h *history) win() {
	if g := h.pick(func(g *soloGame) bool { return g.g.Status == "playing" && (g.seq > 0 || h.r.IntN(6) == 0) }); g != nil {
		h.update(g, "won")
	}
}

// unwin takes a win back (no table does; the store allows it).
func (h *history) unwin() {
	if g := h.pick(func(g *soloGame) bool { return g.g.Status == "won" }); g != nil {
		h.update(g, "playing")
	}
}

func (h *history) hint() {
	if g := h.pick(nil); g != nil {
		if _, err := h.s.AddHint(ctxOf(h.t), g.g.ID); err != nil {
			h.t.Fatal(err)
		}
	}
}

func (h *history) check() {
	if g := h.pick(nil); g != nil {
		if err := h.s.SetChecked(ctxOf(h.t), g.g.ID); err != nil {
			h.t.Fatal(err)
		}
	}
}

// reset moves a player's reset point: before, among or after the games'
// starts (back and forth), at times on a game's start or its point again.
func (h *history) reset() {
	p := h.players[h.r.IntN(len(h.players))]
	if h.deleted[p] {
		return
	}
	at := h.start.Add(time.Duration(h.r.IntN(80)-10) * time.Minute).Add(time.Duration(h.r.IntN(3)-1) * time.Microsecond)
	if prev, ok := h.since[p]; ok && h.r.IntN(5) == 0 {
		at = prev
	}
	if err := h.s.ResetStats(ctxOf(h.t), p, at); err != nil {
		h.t.Fatal(err)
	}
	h.since[p] = at
}

// abandon sweeps the games left unfinished before a time among the
// history's, and forgets those it deleted (read back).
func (h *history) abandon() {
	before := h.start.Add(time.Duration(h.r.IntN(90)) * time.Minute)
	if _, err := h.s.DeleteAbandoned(ctxOf(h.t), before, 0); err != nil {
		h.t.Fatal(err)
	}
	for _, g := range h.games {
		if !g.stored || !h.alive(g) {
			continue
		}
		if _, err := h.s.Game(ctxOf(h.t), g.g.ID); errors.Is(err, store.ErrNotFound) {
			g.g.ID = "" // gone
		} else if err != nil {
			h.t.Fatal(err)
		}
	}
}

// race plays a race between two of the players or one and the bot: over
// with a result (some rated), cancelled, or left in play.
func (h *history) race() {
	var live []string
	for _, p := range h.players {
		if !h.deleted[p] {
			live = append(live, p)
		}
	}
	if len(live) == 0 {
		return
	}
	a := live[h.r.IntN(len(live))]
	b := store.BotPlayerID
	if others := slices.DeleteFunc(slices.Clone(live), func(p string) bool { return p == a }); len(others) > 0 && h.r.IntN(3) > 0 {
		b = others[h.r.IntN(len(others))]
	}
	id := fmt.Sprintf("%s-r%03d", h.name, h.step)
	at := h.start.Add(time.Duration(h.r.IntN(60)) * time.Minute)
	g := NewRace(id, a, false, at)
	mustCreateGame(h.t, h.s, g)
	if h.r.IntN(6) == 0 {
		if err := h.s.CancelRace(ctxOf(h.t), id, a, at); err != nil {
			h.t.Fatal(err)
		}
		return
	}
	if err := h.s.JoinGame(ctxOf(h.t), id, b, at); err != nil {
		h.t.Fatal(err)
	}
	if h.r.IntN(6) == 0 {
		return // still in play
	}
	g.Seats[1], g.Status, g.UpdatedAt, g.Result = b, "over", at.Add(time.Minute), h.result()
	h.races = append(h.races, g)
	if b == store.BotPlayerID || h.r.IntN(2) == 0 {
		if err := h.s.UpdateGame(ctxOf(h.t), g); err != nil {
			h.t.Fatal(err)
		}
		return
	}
	err := h.s.FinishRace(ctxOf(h.t), g, func(current [2]store.Rating, _ int) *store.RaceRating {
		after := current
		after[0].Rating += 10
		after[1].Rating -= 10
		return &store.RaceRating{Players: [2]string{a, b}, Rated: true, Before: current, After: after, At: g.UpdatedAt}
	})
	if err != nil {
		h.t.Fatal(err)
	}
}

// result returns a random race result: either seat won, or a draw.
func (h *history) result() []byte {
	results := []string{`{"winner":1,"reason":"out","counts":[52,30]}`, `{"winner":2,"reason":"resign","counts":[3,9]}`,
		`{"winner":null,"reason":"blocked","counts":[20,20]}`}
	return []byte(results[h.r.IntN(len(results))])
}

// rewrite writes a race over again: as it was (a repaired status write)
// or with another result (no table does; the store allows it).
func (h *history) rewrite() {
	if len(h.races) == 0 {
		return
	}
	i := h.r.IntN(len(h.races))
	g := h.races[i]
	if h.deleted[g.Seats[0]] || h.deleted[g.Seats[1]] {
		return // its seats passed to the deleted player's stand-in
	}
	if h.r.IntN(2) == 0 {
		g.Result = h.result()
	}
	g.UpdatedAt = g.UpdatedAt.Add(time.Second)
	if err := h.s.UpdateGame(ctxOf(h.t), g); err != nil {
		h.t.Fatal(err)
	}
	h.races[i] = g
}

// deletePlayer deletes one of the players, once in a while.
func (h *history) deletePlayer() {
	if len(h.deleted) > 0 || h.r.IntN(3) > 0 {
		return
	}
	p := h.players[h.r.IntN(len(h.players))]
	if _, err := h.s.DeletePlayer(ctxOf(h.t), p); err != nil {
		h.t.Fatal(err)
	}
	h.deleted[p] = true
}
