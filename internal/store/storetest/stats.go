package storetest

import (
	"fmt"
	"testing"
	"time"

	"dsol/internal/store"
)

// Played describes a solo game for the statistics tests: its mode, when it
// was started, the times of its actions (offsets from the start, the first
// one included), the tally its last action leaves, whether its log holds an
// undo, and whether it was won.
type Played struct {
	ID      string
	Mode    store.Mode
	Created time.Time
	At      []time.Duration
	Score   int
	Moves   int
	Undo    bool
	Won     bool
}

// SoloCode is a solo code of a mode.
func SoloCode(m store.Mode) string {
	letter := "N"
	if m.Scoring == "vegas" {
		letter = "V"
	}
	return fmt.Sprintf("DS1-D%d%s-AAAAAAB", m.Draw, letter)
}

// PlayedActions returns the actions of a Played game as the table stores
// them: each one's tally carries the seconds of play so far (store.AddGap),
// the last one the game's score and moves. The second action is an undo
// when p.Undo.
func PlayedActions(p Played) []store.Action {
	actions := make([]store.Action, len(p.At))
	var play time.Duration
	for i, off := range p.At {
		at := p.Created.Add(off)
		if i > 0 {
			play = store.AddGap(play, actions[i-1].At, at)
		}
		a := NewAction(p.ID, int64(i+1), 1, "")
		if p.Undo && i == 1 {
			a.Action = []byte(`{"type":"undo"}`)
		}
		a.At = at
		a.Tally = &store.Tally{Score: i, Moves: i, Play: play}
		actions[i] = a
	}
	if n := len(actions); n > 0 {
		actions[n-1].Tally.Score, actions[n-1].Tally.Moves = p.Score, p.Moves
	}
	return actions
}

// mustPlay stores a Played game of player.
func mustPlay(tb testing.TB, s store.Store, player string, p Played) {
	tb.Helper()
	g := NewSolo(p.ID, player, p.Created)
	g.Code = SoloCode(p.Mode)
	mustCreateGame(tb, s, g)
	if len(p.At) > 0 {
		mustAppend(tb, s, PlayedActions(p)...)
	}
	if p.Won {
		g.Status = "won"
		g.UpdatedAt = p.Created.Add(p.At[len(p.At)-1])
		if err := s.UpdateGame(ctxOf(tb), g); err != nil {
			tb.Fatalf("UpdateGame(%s): %v", p.ID, err)
		}
	}
}

func mustStats(tb testing.TB, s store.Store, player string) store.Stats {
	tb.Helper()
	st, err := s.Stats(ctxOf(tb), player)
	if err != nil {
		tb.Fatalf("Stats(%s): %v", player, err)
	}
	if len(st.Solo) != len(store.SoloModes) {
		tb.Fatalf("Stats(%s): %d solo modes, want %d", player, len(st.Solo), len(store.SoloModes))
	}
	for i, m := range store.SoloModes {
		if st.Solo[i].Mode != m {
			tb.Fatalf("Stats(%s): solo entry %d is %+v, want %+v", player, i, st.Solo[i].Mode, m)
		}
	}
	return st
}

var (
	d1n = store.Mode{Draw: 1, Scoring: "normal"}
	d3v = store.Mode{Draw: 3, Scoring: "vegas"}
)

// seconds returns offsets of actions one second apart.
func seconds(n int) []time.Duration {
	at := make([]time.Duration, n)
	for i := range at {
		at[i] = time.Duration(i) * time.Second
	}
	return at
}

func intIs(p *int, want int) bool { return p != nil && *p == want }

func testStats(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	for _, p := range []string{"alice", "bob", "carol", store.BotPlayerID} {
		mustCreatePlayer(t, s, NewPlayer(p))
	}

	t.Run("Empty", func(t *testing.T) {
		st := mustStats(t, s, "carol")
		for _, m := range st.Solo {
			if m.Played != 0 || m.Won != 0 || m.Streak != 0 || m.BestStreak != 0 ||
				m.BestScore != nil || m.FastestWin != nil || m.FewestMoves != nil || len(m.Recent) != 0 {
				t.Fatalf("no games, mode %+v: %+v", m.Mode, m)
			}
		}
		if st.Race != (store.RaceStats{Rating: store.StartRating().Rating, Deviation: store.StartRating().Deviation}) || !st.Since.IsZero() {
			t.Fatalf("no races: %+v, since %v", st.Race, st.Since)
		}
		_, err := s.Stats(ctx, "ghost")
		mustBeErr(t, "stats of an unknown player", err, store.ErrNotFound)
	})

	t.Run("PlayedNeedsAnAction", func(t *testing.T) {
		mustPlay(t, s, "bob", Played{ID: "p-none", Mode: d3v, Created: base})
		mustPlay(t, s, "bob", Played{ID: "p-one", Mode: d3v, Created: base.Add(time.Minute), At: seconds(1), Score: -52, Moves: 1})
		mustPlay(t, s, "alice", Played{ID: "p-other", Mode: d3v, Created: base, At: seconds(3)})
		st := mustStats(t, s, "bob")
		got := st.Solo[3]
		if got.Played != 1 || got.Won != 0 || !intIs(got.BestScore, -52) || len(got.Recent) != 1 {
			t.Fatalf("one game with an action, one without: %+v", got)
		}
		for i, m := range st.Solo[:3] {
			if m.Played != 0 {
				t.Fatalf("mode %d counts games of another mode: %+v", i, m)
			}
		}
	})

	t.Run("Streaks", func(t *testing.T) {
		at := base.Add(time.Hour)
		game := func(id string, won bool) {
			at = at.Add(time.Minute)
			mustPlay(t, s, "carol", Played{ID: id, Mode: d1n, Created: at, At: seconds(2), Won: won})
		}
		check := func(what string, played, streak, best int) store.SoloStats {
			t.Helper()
			got := mustStats(t, s, "carol").Solo[0]
			if got.Played != played || got.Streak != streak || got.BestStreak != best {
				t.Fatalf("%s: played %d, streak %d, best %d; want %d, %d, %d",
					what, got.Played, got.Streak, got.BestStreak, played, streak, best)
			}
			return got
		}
		for i, won := range []bool{true, true, false, true} {
			game(fmt.Sprintf("s%d", i), won)
		}
		check("win, win, loss, win", 4, 1, 2)
		game("s4", false)
		got := check("then a game in play", 5, 1, 2)
		if last := got.Recent[len(got.Recent)-1]; last.Won || !last.Playing {
			t.Fatalf("the latest game, unwon: %+v, want playing", last)
		}
		game("s5", false)
		got = check("then a later game started", 6, 0, 2)
		if r := got.Recent[len(got.Recent)-2]; r.Won || r.Playing {
			t.Fatalf("the game left unwon: %+v, want lost", r)
		}
		game("s6", true)
		game("s7", true)
		game("s8", true)
		got = check("three wins after", 9, 3, 3)
		want := []bool{true, true, false, true, false, false, true, true, true}
		for i, r := range got.Recent {
			if r.Won != want[i] {
				t.Fatalf("recent %d: won %v, want %v (oldest first)", i, r.Won, want[i])
			}
		}
	})

	t.Run("Recent", func(t *testing.T) {
		start := base.Add(2 * time.Hour)
		for i := range store.RecentGames + 5 {
			mustPlay(t, s, "alice", Played{ID: fmt.Sprintf("r%d", i), Mode: d1n,
				Created: start.Add(time.Duration(i) * time.Minute), At: seconds(1), Score: i, Moves: 1})
		}
		got := mustStats(t, s, "alice").Solo[0]
		if got.Played != store.RecentGames+5 || len(got.Recent) != store.RecentGames {
			t.Fatalf("played %d, %d recent; want %d, %d", got.Played, len(got.Recent), store.RecentGames+5, store.RecentGames)
		}
		for i, r := range got.Recent {
			if !intIs(r.Score, i+5) {
				t.Fatalf("recent %d: score %v, want %d (the latest, oldest first)", i, r.Score, i+5)
			}
		}
	})
}

func testStatsFigures(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	mustCreatePlayer(t, s, NewPlayer("alice"))
	d := time.Second

	// Wins: 10 s, then a 90 s gap capped at 60 s, then 5 s: 75 s; and
	// 50 s + a 10 min gap capped: 110 s. The unwon game was quicker and has
	// the best score, but only wins have a fastest time and fewest moves.
	mustPlay(t, s, "alice", Played{ID: "w75", Mode: d1n, Created: base, At: []time.Duration{0, 10 * d, 100 * d, 105 * d},
		Score: 500, Moves: 30, Won: true})
	mustPlay(t, s, "alice", Played{ID: "w110", Mode: d1n, Created: base.Add(time.Hour), At: []time.Duration{0, 50 * d, 650 * d},
		Score: 900, Moves: 20, Won: true, Undo: true})
	mustPlay(t, s, "alice", Played{ID: "open", Mode: d1n, Created: base.Add(2 * time.Hour), At: []time.Duration{0, d},
		Score: 1000, Moves: 5, Undo: true})
	// a win with a hint given is assisted too, with no undo in its log
	mustPlay(t, s, "alice", Played{ID: "hinted", Mode: d1n, Created: base.Add(-time.Hour), At: []time.Duration{0, 50 * d, 100 * d, 150 * d},
		Score: 100, Moves: 40, Won: true})
	if _, err := s.AddHint(ctxOf(t), "hinted"); err != nil {
		t.Fatal(err)
	}
	// and so is a win with the live check turned on
	mustPlay(t, s, "alice", Played{ID: "checked", Mode: d1n, Created: base.Add(-2 * time.Hour), At: []time.Duration{0, 60 * d, 120 * d},
		Score: 50, Moves: 50, Won: true})
	if err := s.SetChecked(ctxOf(t), "checked"); err != nil {
		t.Fatal(err)
	}

	got := mustStats(t, s, "alice").Solo[0]
	if got.FastestWin == nil || *got.FastestWin != 75*d {
		t.Fatalf("fastest win %v, want 75s (gaps capped at %v)", got.FastestWin, store.MaxGap)
	}
	if !intIs(got.FewestMoves, 20) || !intIs(got.BestScore, 1000) {
		t.Fatalf("fewest moves %v, best score %v; want 20, 1000", got.FewestMoves, got.BestScore)
	}
	if got.Won != 4 || got.Assisted != 3 || got.Clean() != 1 {
		t.Fatalf("won %d, assisted %d, clean %d; want 4, 3, 1 (an undo in the log, a hint given or the check on assists)", got.Won, got.Assisted, got.Clean())
	}
	want := []store.Recent{{Won: true}, {Won: true}, {Won: true}, {Won: true}, {Playing: true}}
	plays := []time.Duration{120 * d, 150 * d, 75 * d, 110 * d, d}
	for i, r := range got.Recent {
		if r.Won != want[i].Won || r.Playing != want[i].Playing || r.Play == nil || *r.Play != plays[i] {
			t.Fatalf("recent %d: %+v (play %v), want %+v with play %v", i, r, r.Play, want[i], plays[i])
		}
	}
}

func testStatsReset(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	for _, p := range []string{"alice", "bob"} {
		mustCreatePlayer(t, s, NewPlayer(p))
	}
	mustPlay(t, s, "alice", Played{ID: "old", Mode: d1n, Created: base, At: seconds(2), Score: 700, Won: true})
	ratedRace(t, s, "r-old", "alice", "bob", base, `{"winner":1,"reason":"out","counts":[52,30]}`,
		[2]store.Rating{{Rating: 1600, Deviation: 300, Volatility: 0.06}, {Rating: 1400, Deviation: 300, Volatility: 0.06}})
	before := mustStats(t, s, "alice")

	reset := base.Add(time.Hour)
	if err := s.ResetStats(ctx, "alice", reset); err != nil {
		t.Fatal(err)
	}
	mustBeErr(t, "reset of an unknown player", s.ResetStats(ctx, "ghost", reset), store.ErrNotFound)
	mustPlay(t, s, "alice", Played{ID: "new", Mode: d1n, Created: reset.Add(time.Minute), At: seconds(2), Score: 100})

	st := mustStats(t, s, "alice")
	got := st.Solo[0]
	if got.Played != 1 || got.Won != 0 || got.BestStreak != 0 || !intIs(got.BestScore, 100) || len(got.Recent) != 1 {
		t.Fatalf("after the reset: %+v, want only the game started after it", got)
	}
	if !st.Since.Equal(reset) {
		t.Fatalf("since %v, want %v", st.Since, reset)
	}
	if st.Race.Played != 0 || st.Race.Won != 0 || st.Race.Rating != 1600 || before.Race.Rating != 1600 {
		t.Fatalf("races after the reset: %+v, want none counted and the rating kept (%v)", st.Race, before.Race.Rating)
	}
	if bob := mustStats(t, s, "bob"); bob.Race.Played != 1 {
		t.Fatalf("alice's reset changed bob's statistics: %+v", bob.Race)
	}
}

// ratedRace stores a race between a (seat 1) and b (seat 2) that ended with
// result and was rated: after becomes their ratings (Store.FinishRace).
func ratedRace(tb testing.TB, s store.Store, id, a, b string, at time.Time, result string, after [2]store.Rating) {
	tb.Helper()
	g := NewRace(id, a, false, at)
	mustCreateGame(tb, s, g)
	if err := s.JoinGame(ctxOf(tb), id, b, at); err != nil {
		tb.Fatalf("JoinGame(%s): %v", id, err)
	}
	g.Seats[1], g.Status, g.UpdatedAt, g.Result = b, "over", at.Add(time.Minute), []byte(result)
	if err := s.FinishRace(ctxOf(tb), g, func(current [2]store.Rating, _ int) *store.RaceRating {
		return &store.RaceRating{Players: [2]string{a, b}, Rated: true, Before: current, After: after, At: g.UpdatedAt}
	}); err != nil {
		tb.Fatalf("FinishRace(%s): %v", id, err)
	}
}

// finishRace stores a race between a (seat 1) and b (seat 2) that ended
// with result; an empty result stores a cancelled race.
func finishRace(tb testing.TB, s store.Store, id, a, b string, at time.Time, result string) {
	tb.Helper()
	g := NewRace(id, a, false, at)
	mustCreateGame(tb, s, g)
	if err := s.JoinGame(ctxOf(tb), id, b, at); err != nil {
		tb.Fatalf("JoinGame(%s): %v", id, err)
	}
	g.Seats[1], g.Status, g.UpdatedAt = b, "over", at.Add(time.Minute)
	if result != "" {
		g.Result = []byte(result)
	}
	if err := s.UpdateGame(ctxOf(tb), g); err != nil {
		tb.Fatalf("UpdateGame(%s): %v", id, err)
	}
}

func testStatsRaces(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	for _, p := range []string{"alice", "bob", store.BotPlayerID} {
		mustCreatePlayer(t, s, NewPlayer(p))
	}
	win1 := `{"winner":1,"reason":"out","counts":[52,30]}`
	win2 := `{"winner":2,"reason":"resign","counts":[3,9]}`
	draw := `{"winner":null,"reason":"blocked","counts":[20,20]}`
	at := func(i int) time.Time { return base.Add(time.Duration(i) * time.Minute) }

	finishRace(t, s, "r1", "alice", "bob", at(1), win1) // alice wins
	finishRace(t, s, "r2", "bob", "alice", at(2), win1) // bob wins, seat 1
	finishRace(t, s, "r3", "alice", "bob", at(3), win1) // alice wins
	finishRace(t, s, "r4", "alice", "bob", at(4), draw)
	finishRace(t, s, "r5", "alice", "bob", at(5), "")               // cancelled: no result
	finishRace(t, s, "r6", "alice", store.BotPlayerID, at(6), win1) // against the bot: not rated
	finishRace(t, s, "r7", "alice", store.BotPlayerID, at(7), win2) // lost to the bot
	mustCreateGame(t, s, NewRace("r8", "alice", true, at(8)))       // waiting
	mustPlay(t, s, "alice", Played{ID: "solo", Mode: d1n, Created: at(9), At: seconds(1)})

	// Writing an ended race again (a repaired status write) rates nothing.
	g := mustGame(t, s, "r1")
	g.UpdatedAt = at(10)
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}

	st := mustStats(t, s, "alice")
	want := store.RaceCounts{Played: 6, Won: 3, Lost: 2, Drawn: 1}
	wantBot := store.RaceCounts{Played: 2, Won: 1, Lost: 1}
	if st.Race.RaceCounts != want || st.Race.Bot != wantBot {
		t.Fatalf("alice's races: %+v, bot %+v; want %+v, bot %+v", st.Race.RaceCounts, st.Race.Bot, want, wantBot)
	}
	bob := mustStats(t, s, "bob")
	if want := (store.RaceCounts{Played: 4, Won: 1, Lost: 2, Drawn: 1}); bob.Race.RaceCounts != want {
		t.Fatalf("bob's races: %+v; want %+v", bob.Race, want)
	}
	// the rating is the stored one (Store.FinishRace), for a player never
	// rated the start rating
	if st.Race.Rating != store.StartRating().Rating || bob.Race.Rating != store.StartRating().Rating {
		t.Fatalf("ratings before any rated race: alice %v, bob %v", st.Race.Rating, bob.Race.Rating)
	}
	after := [2]store.Rating{{Rating: 1662.3, Deviation: 290.3, Volatility: 0.06}, {Rating: 1337.7, Deviation: 290.3, Volatility: 0.06}}
	ratedRace(t, s, "rated", "alice", "bob", at(11), win1, after)
	for i, p := range []string{"alice", "bob"} {
		if got := mustStats(t, s, p).Race.Rating; got != after[i].Rating {
			t.Fatalf("%s's rating %v after a rated race, want %v", p, got, after[i].Rating)
		}
	}
	if bot := mustStats(t, s, store.BotPlayerID); bot.Race.Rating != store.StartRating().Rating {
		t.Fatalf("the bot's rating moved: %v", bot.Race.Rating)
	}
}

// Seed sizes of the statistics benchmark: BenchPlayer's solo games, each
// with BenchActions actions, and the games of BenchOthers other players.
const (
	BenchPlayer  = "bench"
	BenchGames   = 100_000
	BenchActions = 10
	BenchOthers  = 2
	BenchRaces   = 1_000
)

// StatsSeed returns the SQL statements that store the games of the
// statistics benchmark, the players being there already (BenchPlayer and
// "other1" … "otherN"). at turns an SQL expression of microseconds after
// the seed's start into the dialect's time. Every third game is unwon,
// every seventh has an undo; the player's races are against "other1".
func StatsSeed(at func(us string) string) []string {
	var out []string
	seq := func(name string, n int) string {
		return fmt.Sprintf("%s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM %s WHERE i < %d)", name, name, n-1)
	}
	games := func(player string, n int) {
		start := at("CAST(n.i AS BIGINT) * 60000000")
		out = append(out, `WITH RECURSIVE `+seq("n", n)+`
INSERT INTO games (id, kind, code, status, seat1, series_game, created_at, updated_at)
SELECT '`+player+`-' || n.i, 'solo',
	CASE n.i % 4 WHEN 0 THEN 'DS1-D1N-AAAAAAB' WHEN 1 THEN 'DS1-D1V-AAAAAAB' WHEN 2 THEN 'DS1-D3N-AAAAAAB' ELSE 'DS1-D3V-AAAAAAB' END,
	CASE WHEN n.i % 3 = 0 THEN 'playing' ELSE 'won' END, '`+player+`', 0, `+start+`, `+start+`
FROM n`)
		out = append(out, `WITH RECURSIVE `+seq("n", n)+`, `+seq("s", BenchActions)+`
INSERT INTO actions (game_id, seq, seat, action, at, score, moves, play_ms)
SELECT '`+player+`-' || n.i, s.i + 1, 1,
	CASE WHEN s.i = 1 AND n.i % 7 = 0 THEN '{"type":"undo"}' ELSE '{"type":"draw"}' END,
	`+at("CAST(n.i AS BIGINT) * 60000000 + s.i * 5000000")+`, n.i % 1000 + s.i, s.i + n.i % 50, s.i * 5000 + n.i % 100000
FROM n, s`)
	}
	games(BenchPlayer, BenchGames)
	for k := 1; k <= BenchOthers; k++ {
		games(fmt.Sprintf("other%d", k), BenchGames/10)
	}
	start := at("CAST(n.i AS BIGINT) * 60000000")
	out = append(out, `WITH RECURSIVE `+seq("n", BenchRaces)+`
INSERT INTO games (id, kind, code, status, seat1, seat2, series_game, result, created_at, updated_at)
SELECT 'race-' || n.i, 'race', 'DR1-D1U-AAAAAAB', 'over', '`+BenchPlayer+`', 'other1', 1,
	CASE n.i % 3 WHEN 0 THEN '{"winner":1,"reason":"out","counts":[52,3]}' WHEN 1 THEN '{"winner":2,"reason":"out","counts":[3,52]}'
	ELSE '{"winner":null,"reason":"blocked","counts":[9,9]}' END, `+start+`, `+start+`
FROM n`)
	return out
}

// SeedStats stores the players and, through exec, the games of StatsSeed.
func SeedStats(tb testing.TB, s store.Store, exec func(query string) error, at func(us string) string) {
	tb.Helper()
	mustCreatePlayer(tb, s, NewPlayer(BenchPlayer))
	for k := 1; k <= BenchOthers; k++ {
		mustCreatePlayer(tb, s, NewPlayer(fmt.Sprintf("other%d", k)))
	}
	for _, q := range StatsSeed(at) {
		if err := exec(q); err != nil {
			tb.Fatalf("seed: %v\n%s", err, q)
		}
	}
}

// BenchStats times Stats of the seeded BenchPlayer.
func BenchStats(b *testing.B, s store.Store) {
	st := mustStats(b, s, BenchPlayer)
	if st.Solo[0].Played != BenchGames/4 || st.Race.Played != BenchRaces {
		b.Fatalf("seeded stats: %+v, races %+v", st.Solo[0], st.Race)
	}
	for b.Loop() {
		if _, err := s.Stats(ctxOf(b), BenchPlayer); err != nil {
			b.Fatal(err)
		}
	}
}
