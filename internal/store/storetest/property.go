package storetest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"dsol/internal/store"
)

// BeforeStatsTables is the schema version below the statistics tables
// (migration 00013 makes and fills them).
const BeforeStatsTables = 12

// PropertyHistories is how many random histories a property test plays:
// def, or the number in DSOL_PROPERTY_STATS (for a longer search).
func PropertyHistories(tb testing.TB, def int) int {
	tb.Helper()
	s := os.Getenv("DSOL_PROPERTY_STATS")
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		tb.Fatalf("DSOL_PROPERTY_STATS=%q: want a number of histories", s)
	}
	return n
}

// PropertyStats plays histories random histories on s, one after the
// other, each with players of its own, and checks at random points of each
// and at its end that Stats of each of its players equals RecomputeStats,
// the statistics recomputed in Go from the games and actions read back. A
// history starts solo games of random modes in random order (their start
// times are not the order they are created or played in), commits their
// actions interleaved across games, one batch holding several games at
// times, with gaps over MaxGap, undos and finishes, and in between wins
// games (older ones after newer ones were started, some without an action
// yet), takes a win back now and then, gives hints, turns the check on,
// resets a player's statistics (to before, within and after the games, back
// and forth), deletes abandoned games, plays races (against each other and
// the bot, some rated, some cancelled, some written again with another
// result) and deletes a player.
//
// remigrate, when not nil, takes the schema down below the statistics
// tables and up again (migration 00013 fills them from the games stored):
// it is called in the middle of the middle history, which goes on playing
// on the filled tables, and at the end, every history's players being
// checked again.
func PropertyStats(t *testing.T, s store.Store, histories int, remigrate func(t *testing.T)) {
	if err := s.CreatePlayer(ctxOf(t), NewPlayer(store.BotPlayerID)); err != nil && !errors.Is(err, store.ErrConflict) {
		t.Fatal(err)
	}
	seed := uint64(time.Now().UnixNano())
	if v, err := strconv.ParseUint(os.Getenv("DSOL_PROPERTY_SEED"), 10, 64); err == nil {
		seed = v
	}
	t.Logf("seed %d (DSOL_PROPERTY_SEED repeats it)", seed)
	var played []*history
	for i := range histories {
		h := newHistory(t, s, rand.New(rand.NewPCG(seed, uint64(i))), i)
		if i == histories/2 {
			h.remigrate = remigrate
		}
		h.play()
		played = append(played, h)
	}
	if remigrate != nil {
		remigrate(t)
		for _, h := range played {
			h.checkAll("after the tables were filled again at the end")
		}
	}
}

// history is one random history of PropertyStats.
type history struct {
	t       *testing.T
	s       store.Store
	r       *rand.Rand
	name    string
	start   time.Time // the games start within the hour after it
	players []string
	deleted map[string]bool
	since   map[string]time.Time // reset points set
	games   []*soloGame
	tallies map[string]map[int64]*store.Tally // as committed, by game and seq
	races   []store.Game                      // the races over, as last written
	step    int                               // operations played so far
	// remigrate, when not nil, is called at a random step (PropertyStats)
	remigrate func(t *testing.T)
}

// soloGame is a solo game of a history as the history last wrote it.
type soloGame struct {
	g      store.Game
	stored bool
	seq    int64
	last   time.Time // its last action's time
	play   time.Duration
	score  int
	moves  int
}

func newHistory(t *testing.T, s store.Store, r *rand.Rand, i int) *history {
	h := &history{t: t, s: s, r: r, name: fmt.Sprintf("h%03d", i),
		// each history earlier than the ones before, so that its sweeps
		// of abandoned games leave theirs alone
		start:   base.Add(-time.Duration(i) * 1000 * time.Hour),
		deleted: map[string]bool{}, since: map[string]time.Time{}, tallies: map[string]map[int64]*store.Tally{}}
	for k := range 3 {
		p := NewPlayer(fmt.Sprintf("%s-p%d", h.name, k))
		mustCreatePlayer(t, s, p)
		h.players = append(h.players, p.ID)
	}
	for k := range 10 + r.IntN(30) {
		// minutes, so that some games start at the same time (the order is then by id)
		created := h.start.Add(time.Duration(r.IntN(60)) * time.Minute)
		g := NewSolo(fmt.Sprintf("%s-g%03d", h.name, k), h.players[r.IntN(len(h.players))], created)
		g.Code = SoloCode(store.SoloModes[r.IntN(2)*r.IntN(4)]) // draw 1 normal more often: longer streaks
		h.games = append(h.games, &soloGame{g: g})
	}
	return h
}

// play runs the history's operations, checking now and then and at the end.
func (h *history) play() {
	ops := []struct {
		weight int
		run    func()
	}{
		{30, h.appendBatch},
		{8, h.win},
		{1, h.unwin},
		{4, h.hint},
		{2, h.check},
		{2, h.reset},
		{1, h.abandon},
		{3, h.race},
		{1, h.rewrite},
		{4, func() { h.checkAll("") }},
		{1, h.deletePlayer},
	}
	total := 0
	for _, op := range ops {
		total += op.weight
	}
	steps := 80 + h.r.IntN(80)
	refill := h.r.IntN(steps)
	for h.step = 0; h.step < steps; h.step++ {
		if h.remigrate != nil && h.step == refill {
			h.remigrate(h.t)
			h.checkAll(fmt.Sprintf("step %d, after the tables were filled again", h.step))
		}
		n := h.r.IntN(total)
		for _, op := range ops {
			if n -= op.weight; n < 0 {
				op.run()
				break
			}
		}
	}
	h.checkAll("at the end")
}

func (h *history) alive(g *soloGame) bool { return !h.deleted[g.g.Seats[0]] && g.g.ID != "" }

// pick returns a random game of the history still there, storing it if
// it was not yet; nil when there is none.
func (h *history) pick(ok func(*soloGame) bool) *soloGame {
	var c []*soloGame
	for _, g := range h.games {
		if h.alive(g) && (ok == nil || ok(g)) {
			c = append(c, g)
		}
	}
	if len(c) == 0 {
		return nil
	}
	g := c[h.r.IntN(len(c))]
	if !g.stored {
		mustCreateGame(h.t, h.s, g.g)
		g.stored = true
	}
	return g
}

// checkAll checks the statistics of every player of the history.
func (h *history) checkAll(when string) {
	h.t.Helper()
	if when == "" {
		when = fmt.Sprintf("step %d", h.step)
	}
	for _, p := range h.players {
		got, err := h.s.Stats(ctxOf(h.t), p)
		if h.deleted[p] {
			if !errors.Is(err, store.ErrNotFound) {
				h.t.Fatalf("%s %s: Stats of the deleted %s: %v, want ErrNotFound", h.name, when, p, err)
			}
			continue
		}
		if err != nil {
			h.t.Fatalf("%s %s: Stats(%s): %v", h.name, when, p, err)
		}
		var since time.Time
		if at, ok := h.since[p]; ok {
			since = at
		}
		want := RecomputeStats(h.t, h.s, p, since, h.tallies)
		if d := diffStats(got, want); d != "" {
			h.t.Fatalf("%s %s: Stats(%s) differs from the recomputation:\n%s", h.name, when, p, d)
		}
	}
}
