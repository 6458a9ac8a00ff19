package storetest

import (
	"cmp"
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
