package migrations_test

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"dsol/internal/rating"
	"dsol/migrations"
)

// storedRace is a finished race stored before the ratings migration, as the
// rules before it decided it.
type storedRace struct {
	id      string
	seats   [2]string
	winner  int // 0: a draw
	actions [2]int
	step    time.Duration // between two actions, the seats in turn
	oldFlag string        // the decision of the rules before ("": rated)
}

// TestRerateMigration: the races decided under the rules before are decided
// again, in the order they ended, under package rating's: the stored
// decisions and the players' ratings equal a recomputation in Go, on both
// dialects, and a player no race rates has no rating row.
func TestRerateMigration(t *testing.T) {
	base := time.Date(2030, 5, 1, 12, 0, 0, 0, time.UTC)
	races := []storedRace{
		{"r01", [2]string{"a", "b"}, 1, [2]int{12, 12}, 2 * time.Second, rating.FlagNewPlayer},        // rated now
		{"r02", [2]string{"b", "a"}, 2, [2]int{0, 1}, time.Second, ""},                                // resigned at once: too short now
		{"r03", [2]string{"a", "c"}, 1, [2]int{15, 14}, 3 * time.Second, rating.FlagChosenDeal},       // stays chosen
		{"r04", [2]string{"a", "b"}, 0, [2]int{11, 11}, 2 * time.Second, ""},                          // rated
		{"r05", [2]string{"b", "a"}, 1, [2]int{10, 10}, 2 * time.Second, ""},                          // rated: the third of the pair
		{"r06", [2]string{"a", "b"}, 1, [2]int{10, 10}, 2 * time.Second, ""},                          // the pair's fourth: pair_limit
		{"r07", [2]string{"c", "d"}, 2, [2]int{160, 160}, 100 * time.Millisecond, rating.FlagTooFast}, // too fast (200 ms)
		{"r08", [2]string{"c", "d"}, 1, [2]int{20, 20}, 300 * time.Millisecond, rating.FlagTooFast},   // too short (12 s)
	}
	for _, tc := range dialects {
		t.Run(tc.dialect, func(t *testing.T) {
			ctx := context.Background()
			db := tc.open(t)
			p, err := migrations.NewProvider(ctx, db, tc.dialect)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.UpTo(ctx, migrations.RatingsVersion-1); err != nil {
				t.Fatal(err)
			}
			at := func(t time.Time) any {
				if tc.dialect == migrations.SQLite {
					return t.UnixMicro()
				}
				return t
			}
			exec := func(q string, args ...any) {
				t.Helper()
				if _, err := db.ExecContext(ctx, q, args...); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			for _, id := range []string{"a", "b", "c", "d", "e"} {
				exec(`INSERT INTO players (id, name, token_hash, created_at) VALUES ($1, $1, $2, $3)`, id, []byte("h"+id), at(base))
			}
			// e had a rating row under the rules before, from no race now.
			exec(`INSERT INTO ratings (player_id, rating, deviation, volatility, races, updated_at) VALUES ('e', 1700, 80, 0.06, 9, $1)`, at(base))
			end := base
			ends := map[string]time.Time{}
			for _, r := range races {
				start := end.Add(time.Minute)
				result := `{"winner":null,"reason":"blocked","counts":[3,3]}`
				if r.winner > 0 {
					result = fmt.Sprintf(`{"winner":%d,"reason":"resign","counts":[3,3]}`, r.winner)
				}
				exec(`INSERT INTO games (id, kind, code, status, seat1, seat2, result, created_at, updated_at) VALUES ($1, 'race', 'DR1-D1UI-AAAAAAB', 'over', $2, $3, $4, $5, $5)`,
					r.id, r.seats[0], r.seats[1], result, at(start))
				seq, t0 := 0, start
				for i := range max(r.actions[0], r.actions[1]) {
					for s := range 2 {
						if i < r.actions[s] {
							seq++
							exec(`INSERT INTO actions (game_id, seq, seat, action, at) VALUES ($1, $2, $3, '{"type":"draw"}', $4)`, r.id, seq, s+1, at(t0))
							t0 = t0.Add(r.step)
						}
					}
				}
				end = t0
				ends[r.id] = end
				gap := 2 * r.step
				exec(`INSERT INTO race_ratings (game_id, seat1, seat2, rated, flag, gap1_ms, gap2_ms,
					before1_rating, before1_deviation, before1_volatility, before1_races,
					before2_rating, before2_deviation, before2_volatility, before2_races,
					after1_rating, after1_deviation, after1_volatility, after1_races,
					after2_rating, after2_deviation, after2_volatility, after2_races, at)
					VALUES ($1, $2, $3, $4, $5, $6, $6, 1500, 350, 0.06, 0, 1500, 350, 0.06, 0, 1600, 300, 0.06, 1, 1400, 300, 0.06, 1, $7)`,
					r.id, r.seats[0], r.seats[1], r.oldFlag == "", r.oldFlag, gap.Milliseconds(), at(end))
			}
			if _, err := p.Up(ctx); err != nil {
				t.Fatal(err)
			}

			// The recomputation.
			type cur struct {
				r     rating.Rating
				races int
			}
			want := map[string]*cur{}
			of := func(id string) *cur {
				if want[id] == nil {
					want[id] = &cur{r: rating.Start()}
				}
				return want[id]
			}
			var pairTimes []time.Time // of a and b, the only pair rated often
			wantFlags := map[string]string{"r01": "", "r02": rating.FlagTooShort, "r03": rating.FlagChosenDeal, "r04": "",
				"r05": "", "r06": rating.FlagPairLimit, "r07": rating.FlagTooFast, "r08": rating.FlagTooShort}
			for _, r := range races {
				a, b := of(r.seats[0]), of(r.seats[1])
				f := rating.RaceFacts{ChosenDeal: r.oldFlag == rating.FlagChosenDeal, Actions: r.actions,
					MedianGap: [2]time.Duration{2 * r.step, 2 * r.step}, Score: map[int]float64{0: 0.5, 1: 1, 2: 0}[r.winner]}
				f.Played = time.Duration(r.actions[0]+r.actions[1]-1) * r.step
				for _, pt := range pairTimes {
					if pt.After(ends[r.id].Add(-rating.PairWindow)) && ab(r.seats) {
						f.PairRated++
					}
				}
				d := rating.DecideRace(f, [2]rating.Rating{a.r, b.r})
				if d.Flag != wantFlags[r.id] {
					t.Fatalf("%s: the recomputation flags %q, want %q (the fixture is wrong)", r.id, d.Flag, wantFlags[r.id])
				}
				var rated bool
				var flag string
				var after [2]float64
				var races [2]int
				if err := db.QueryRowContext(ctx, `SELECT rated, flag, after1_rating, after2_rating, after1_races, after2_races FROM race_ratings WHERE game_id = $1`, r.id).
					Scan(&rated, &flag, &after[0], &after[1], &races[0], &races[1]); err != nil {
					t.Fatal(err)
				}
				if rated != d.Rated || flag != d.Flag || !near(after[0], d.After[0].Rating) || !near(after[1], d.After[1].Rating) {
					t.Fatalf("%s: stored rated %v %q after %v; want %v %q %v", r.id, rated, flag, after, d.Rated, d.Flag,
						[2]float64{d.After[0].Rating, d.After[1].Rating})
				}
				if d.Rated {
					a.r, b.r = d.After[0], d.After[1]
					a.races++
					b.races++
					if ab(r.seats) {
						pairTimes = append(pairTimes, ends[r.id])
					}
				}
				if races != [2]int{a.races, b.races} {
					t.Fatalf("%s: races after %v, want %v", r.id, races, [2]int{a.races, b.races})
				}
			}
			rows, err := db.QueryContext(ctx, `SELECT player_id, rating, deviation, races FROM ratings ORDER BY player_id`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			got := map[string]bool{}
			for rows.Next() {
				var id string
				var r, dev float64
				var n int
				if err := rows.Scan(&id, &r, &dev, &n); err != nil {
					t.Fatal(err)
				}
				w := want[id]
				if w == nil || w.races == 0 || !near(r, w.r.Rating) || !near(dev, w.r.Deviation) || n != w.races {
					t.Fatalf("rating of %s: %.2f (%.2f) over %d races; want %+v", id, r, dev, n, w)
				}
				got[id] = true
			}
			for id, w := range want {
				if w.races > 0 && !got[id] {
					t.Fatalf("no rating row for %s (%+v)", id, w)
				}
			}
			if got["e"] {
				t.Fatal("e keeps a rating no stored race gives")
			}
		})
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// ab reports whether the seats are a's and b's.
func ab(seats [2]string) bool { return seats == [2]string{"a", "b"} || seats == [2]string{"b", "a"} }
