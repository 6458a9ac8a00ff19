package storetest

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
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

// RecomputeStats computes a player's statistics in Go, from the
// definitions, out of what the store reads back: the player's games
// (ListGames), each solo game's actions (Actions) and the rating (Rating).
// since is the player's reset point (zero: never reset); tallies are the
// tallies committed with the actions (Actions does not read them back), by
// game and seq.
func RecomputeStats(tb testing.TB, s store.Store, player string, since time.Time, tallies map[string]map[int64]*store.Tally) store.Stats {
	tb.Helper()
	st := store.Stats{Since: since}
	counts := func(g store.Game) bool { return since.IsZero() || g.CreatedAt.After(since) }
	type result struct {
		game     store.Game
		won      bool
		assisted bool
		score    *int
		moves    *int
		play     *time.Duration
	}
	byMode := map[store.Mode][]result{}
	for _, g := range mustList(tb, s, store.GameQuery{Player: player}) {
		switch {
		case !counts(g):
		case g.Kind == "solo":
			acts := mustActions(tb, s, g.ID, 0)
			if len(acts) == 0 {
				continue // not played
			}
			r := result{game: g, won: g.Status == "won", assisted: g.Hints > 0 || g.Checked}
			var play time.Duration
			for i, a := range acts {
				if i > 0 {
					play = store.AddGap(play, acts[i-1].At, a.At)
				}
				if t := string(a.Action); t == `{"type":"undo"}` || t == `{"type":"finish"}` {
					r.assisted = true
				}
			}
			r.assisted = r.assisted && r.won
			if t := tallies[g.ID][acts[len(acts)-1].Seq]; t != nil {
				play = time.Duration(play.Milliseconds()) * time.Millisecond // as stored
				r.score, r.moves, r.play = &t.Score, &t.Moves, &play
			}
			m := store.Mode{Draw: int(g.Code[5] - '0'), Scoring: "normal"}
			if g.Code[6] == 'V' {
				m.Scoring = "vegas"
			}
			byMode[m] = append(byMode[m], r)
		case g.Kind == "race" && g.Status == "over" && g.Result != nil:
			var res struct{ Winner *int }
			if err := json.Unmarshal(g.Result, &res); err != nil {
				tb.Fatal(err)
			}
			seat := 1
			if g.Seats[0] != player {
				seat = 2
			}
			c := []*store.RaceCounts{&st.Race.RaceCounts}
			if g.Seats[0] == store.BotPlayerID || g.Seats[1] == store.BotPlayerID {
				c = append(c, &st.Race.Bot)
			}
			for _, c := range c {
				c.Played++
				switch {
				case res.Winner == nil:
					c.Drawn++
				case *res.Winner == seat:
					c.Won++
				default:
					c.Lost++
				}
			}
		}
	}
	r, err := s.Rating(ctxOf(tb), player)
	if err != nil {
		tb.Fatal(err)
	}
	st.Race.Rating, st.Race.Deviation = r.Rating, r.Deviation

	for _, m := range store.SoloModes {
		games := byMode[m]
		slices.SortFunc(games, func(a, b result) int {
			return cmp.Or(a.game.CreatedAt.Compare(b.game.CreatedAt), cmp.Compare(a.game.ID, b.game.ID))
		})
		ms := store.SoloStats{Mode: m, Played: len(games), Recent: []store.Recent{}}
		var runs []int
		run := 0
		for i, g := range games {
			switch {
			case g.won:
				ms.Won++
				run++
				if g.assisted {
					ms.Assisted++
				}
				if g.play != nil && (ms.FastestWin == nil || *g.play < *ms.FastestWin) {
					ms.FastestWin = g.play
				}
				if g.moves != nil && (ms.FewestMoves == nil || *g.moves < *ms.FewestMoves) {
					ms.FewestMoves = g.moves
				}
			case i < len(games)-1: // the latest game, while unwon, breaks nothing yet
				runs = append(runs, run)
				run = 0
			}
			if g.score != nil && (ms.BestScore == nil || *g.score > *ms.BestScore) {
				ms.BestScore = g.score
			}
			if i >= len(games)-store.RecentGames {
				ms.Recent = append(ms.Recent, store.Recent{Won: g.won, Playing: i == len(games)-1 && !g.won,
					Score: g.score, Moves: g.moves, Play: g.play})
			}
		}
		runs = append(runs, run)
		ms.Streak, ms.BestStreak = run, slices.Max(runs)
		st.Solo = append(st.Solo, ms)
	}
	return st
}

// diffStats describes how got differs from want ("" when equal).
func diffStats(got, want store.Stats) string {
	var d string
	if !got.Since.Equal(want.Since) {
		d += fmt.Sprintf("since %v, want %v\n", got.Since, want.Since)
	}
	got.Since = want.Since
	if d == "" && reflect.DeepEqual(got, want) {
		return ""
	}
	if got.Race != want.Race {
		d += fmt.Sprintf("races %+v, want %+v\n", got.Race, want.Race)
	}
	for i := range max(len(got.Solo), len(want.Solo)) {
		var g, w store.SoloStats
		if i < len(got.Solo) {
			g = got.Solo[i]
		}
		if i < len(want.Solo) {
			w = want.Solo[i]
		}
		if !reflect.DeepEqual(g, w) {
			d += fmt.Sprintf("mode %+v:\n got  %s\n want %s\n", w.Mode, soloString(g), soloString(w))
		}
	}
	if d == "" {
		d = fmt.Sprintf("got %+v\nwant %+v\n", got, want)
	}
	return d
}

func soloString(s store.SoloStats) string {
	out := fmt.Sprintf("played %d won %d assisted %d streak %d best %d score %s fastest %s moves %s recent",
		s.Played, s.Won, s.Assisted, s.Streak, s.BestStreak, ptr(s.BestScore), ptr(s.FastestWin), ptr(s.FewestMoves))
	for _, r := range s.Recent {
		out += fmt.Sprintf(" {won %v playing %v score %s moves %s play %s}", r.Won, r.Playing, ptr(r.Score), ptr(r.Moves), ptr(r.Play))
	}
	return out
}

func ptr[T any](p *T) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}

// PropertyLeaderboard plays histories random daily challenges on s, one
// day each, and checks every player's leaderboard of each mode (none, a
// few and every entry listed) against RecomputeLeaderboard. Players made
// before the day and on it, some with a solo game of about earlierActions
// actions begun before the day or on it, enter one mode or both at random
// times and play actions with coarse gaps (0, 20, 40 or 80 s) and move
// counts, so that wins tie on time and moves and the later keys decide;
// wins are clean or assisted (a hint, the check, an undo or a finish), in
// time or after the close, and carry gaps around minGap; some entries have
// no action; a player is deleted now and then.
func PropertyLeaderboard(t *testing.T, s store.Store, histories int) {
	seed := uint64(time.Now().UnixNano())
	if v, err := strconv.ParseUint(os.Getenv("DSOL_PROPERTY_SEED"), 10, 64); err == nil {
		seed = v
	}
	t.Logf("seed %d (DSOL_PROPERTY_SEED repeats it)", seed)
	ctx := ctxOf(t)
	modes := []string{"D1N", "D3N"}
	for i := range histories {
		r := rand.New(rand.NewPCG(seed, uint64(i)))
		begin := dayBegin.Add(time.Duration(10+i) * 24 * time.Hour)
		day := begin.Format("2006-01-02")
		for k, m := range modes {
			mustPutChallenge(t, s, store.DailyChallenge{Day: day, Mode: m, Code: "DS2-" + m + "-" + fmt.Sprintf("%064X", 2*i+k), CreatedAt: begin})
		}
		end := begin.AddDate(0, 0, 1)
		var players []store.Player
		var entries []store.DailyEntry
		tallies := map[string]map[int64]*store.Tally{}
		gaps := map[string]time.Duration{}
		for k := range 4 + r.IntN(12) {
			p := NewPlayer(fmt.Sprintf("d%03d-p%02d", i, k))
			p.CreatedAt = begin.Add(-time.Duration(2+r.IntN(48)) * time.Hour)
			if r.IntN(5) == 0 {
				p.CreatedAt = begin.Add(time.Duration(r.IntN(3)) * time.Hour) // made on the day
			}
			mustCreatePlayer(t, s, p)
			players = append(players, p)
			// Solo games before: none, or one of a few actions or of enough,
			// begun before the day or on it.
			if p.CreatedAt.Before(begin) && r.IntN(4) > 0 {
				start := p.CreatedAt.Add(time.Duration(r.IntN(2)) * time.Hour)
				if r.IntN(4) == 0 {
					start = begin.Add(time.Hour)
				}
				id := fmt.Sprintf("d%03d-e%02d", i, k)
				n := earlierActions - 1 + r.IntN(3)
				at := make([]time.Duration, n)
				for x := range at {
					at[x] = time.Duration(x) * time.Second
				}
				mustCreateGame(t, s, NewSolo(id, p.ID, start))
				mustAppend(t, s, PlayedActions(Played{ID: id, Created: start, At: at, Moves: n})...)
			}
			for _, m := range modes {
				if r.IntN(4) == 0 {
					continue
				}
				entered := begin.Add(time.Duration(4+r.IntN(6)) * time.Hour)
				id := fmt.Sprintf("d%03d-%s-%02d", i, m, k)
				g := dailyGame(id, p.ID, entered)
				g.Code = "DS2-" + m + "-" + fmt.Sprintf("%064X", 1)
				e, _, err := s.StartDaily(ctx, g, store.DailyEntry{Day: day, Mode: m, PlayerID: p.ID, GameID: id, CreatedAt: entered})
				if err != nil {
					t.Fatal(err)
				}
				entries = append(entries, e)
				n := r.IntN(6)
				at, play := entered, time.Duration(0)
				tallies[id] = map[int64]*store.Tally{}
				var acts []store.Action
				late := n > 0 && r.IntN(6) == 0 // the last action after the day closed
				for seq := range n {
					next := at.Add(time.Duration(r.IntN(4)*20) * time.Second)
					if late && seq == n-1 {
						next = end.Add(time.Duration(r.IntN(2)) * time.Minute)
					}
					if seq > 0 {
						play = store.AddGap(play, at, next)
					}
					at = next
					a := NewAction(id, int64(seq+1), 1, "")
					a.At = at
					switch r.IntN(10) {
					case 0:
						a.Action = []byte(`{"type":"undo"}`)
					case 1:
						a.Action = []byte(`{"type":"finish"}`)
					}
					a.Tally = &store.Tally{Score: r.IntN(100), Moves: 1 + r.IntN(3), Play: play}
					tallies[id][a.Seq] = a.Tally
					acts = append(acts, a)
				}
				if n > 0 {
					mustAppend(t, s, acts...)
				}
				switch r.IntN(8) {
				case 0:
					if _, err := s.AddHint(ctx, id); err != nil {
						t.Fatal(err)
					}
				case 1:
					if err := s.SetChecked(ctx, id); err != nil {
						t.Fatal(err)
					}
				}
				if n > 0 && r.IntN(3) > 0 {
					g.Status, g.UpdatedAt = "won", at
					gaps[id] = []time.Duration{-time.Millisecond, 10 * time.Millisecond, minGap - time.Millisecond, minGap, time.Second}[r.IntN(5)]
					if err := s.FinishDaily(ctx, g, gaps[id]); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if r.IntN(3) == 0 {
			gone := players[r.IntN(len(players))]
			if _, err := s.DeletePlayer(ctx, gone.ID); err != nil {
				t.Fatal(err)
			}
			players = slices.DeleteFunc(players, func(p store.Player) bool { return p.ID == gone.ID })
			entries = slices.DeleteFunc(entries, func(e store.DailyEntry) bool { return e.PlayerID == gone.ID })
		}
		for _, m := range modes {
			var of []store.DailyEntry
			for _, e := range entries {
				if e.Mode == m {
					of = append(of, e)
				}
			}
			want := RecomputeLeaderboard(t, s, of, begin, tallies, gaps)
			for _, limit := range []int{0, 3, len(of) + 1} {
				for _, p := range append(slices.Clone(players), store.Player{ID: "nobody"}) {
					q := store.LeaderboardQuery{Day: day, Mode: m, Begin: begin, End: end, Player: p.ID, Limit: limit,
						EarlierActions: earlierActions, MinGap: minGap}
					got, err := s.Leaderboard(ctx, q)
					if err != nil {
						t.Fatal(err)
					}
					w := store.Leaderboard{Entries: []store.DailyRow{}, Players: want.Players}
					for _, row := range want.Entries {
						if row.Ranked && len(w.Entries) < limit {
							w.Entries = append(w.Entries, row)
						}
						if row.PlayerID == p.ID {
							you := row
							w.You = &you
						}
					}
					if !reflect.DeepEqual(got, w) {
						t.Fatalf("history %d, %+v:\ngot  %s\nwant %s", i, q, boardString(got), boardString(w))
					}
				}
			}
		}
	}
}

// RecomputeLeaderboard computes a daily challenge's leaderboard in Go, from
// the definition, out of its entries and what the store reads back: each
// entry's game (Game), player (Player), actions (Actions) and the player's
// other solo games (ListGames). tallies are the tallies committed with the
// actions, by game and seq, and gaps the median gaps stored with the wins,
// by game. A win counts when its last action came before the day closed;
// an entry ranks when its player began a solo game before the day of at
// least earlierActions actions, and a win when its gap is not under
// minGap. It returns every entry, the ranked ones in order (wins first,
// clean above assisted, then fewer seconds of play, fewer moves, the
// earlier winning action; then the earlier entry, the player's id; each
// win ranked by its place) followed by the unranked ones, and Players, the
// number of ranked entries.
func RecomputeLeaderboard(tb testing.TB, s store.Store, entries []store.DailyEntry, begin time.Time, tallies map[string]map[int64]*store.Tally, gaps map[string]time.Duration) store.Leaderboard {
	tb.Helper()
	end := begin.AddDate(0, 0, 1)
	type entry struct {
		row     store.DailyRow
		last    time.Time
		entered time.Time
	}
	earlier := func(player string) bool {
		for _, g := range mustList(tb, s, store.GameQuery{Player: player, Kind: "solo"}) {
			if g.CreatedAt.Before(begin) && len(mustActions(tb, s, g.ID, 0)) >= earlierActions {
				return true
			}
		}
		return false
	}
	var all []entry
	for _, e := range entries {
		g := mustGame(tb, s, e.GameID)
		p, err := s.Player(ctxOf(tb), e.PlayerID)
		if err != nil {
			tb.Fatal(err)
		}
		x := entry{entered: e.CreatedAt, row: store.DailyRow{PlayerID: p.ID, Name: p.Name, GameID: g.ID}}
		assisted := g.Hints > 0 || g.Checked
		acts := mustActions(tb, s, g.ID, 0)
		for i, a := range acts {
			if i > 0 {
				x.row.Play = store.AddGap(x.row.Play, acts[i-1].At, a.At)
			}
			if t := string(a.Action); t == `{"type":"undo"}` || t == `{"type":"finish"}` {
				assisted = true
			}
			x.last = a.At
		}
		if len(acts) > 0 {
			x.row.Moves = tallies[g.ID][acts[len(acts)-1].Seq].Moves
		}
		x.row.Play = time.Duration(x.row.Play.Milliseconds()) * time.Millisecond // as stored
		x.row.Won = g.Status == "won" && x.last.Before(end)
		x.row.Clean = x.row.Won && !assisted
		switch {
		case !earlier(p.ID):
			x.row.Unranked = store.UnrankedNewAccount
		case x.row.Won && gaps[g.ID] < minGap:
			x.row.Unranked = store.UnrankedTooFast
		}
		x.row.Ranked = x.row.Unranked == ""
		all = append(all, x)
	}
	slices.SortFunc(all, func(a, b entry) int {
		if c := boolFirst(a.row.Ranked) - boolFirst(b.row.Ranked); c != 0 {
			return c
		}
		if c := boolFirst(a.row.Won) - boolFirst(b.row.Won); c != 0 {
			return c
		}
		if a.row.Won {
			if c := cmp.Or(boolFirst(a.row.Clean)-boolFirst(b.row.Clean), cmp.Compare(a.row.Play, b.row.Play),
				cmp.Compare(a.row.Moves, b.row.Moves), a.last.Compare(b.last)); c != 0 {
				return c
			}
		}
		return cmp.Or(a.entered.Compare(b.entered), cmp.Compare(a.row.PlayerID, b.row.PlayerID))
	})
	lb := store.Leaderboard{Entries: []store.DailyRow{}}
	for i, x := range all {
		if x.row.Ranked {
			lb.Players++
			if x.row.Won {
				x.row.Rank = i + 1
			}
		}
		lb.Entries = append(lb.Entries, x.row)
	}
	return lb
}

func boardString(lb store.Leaderboard) string {
	out := fmt.Sprintf("players %d, you %s, entries:", lb.Players, ptr(lb.You))
	for _, r := range lb.Entries {
		out += fmt.Sprintf("\n  %+v", r)
	}
	return out
}
