package storetest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"dsol/internal/store"
)

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
