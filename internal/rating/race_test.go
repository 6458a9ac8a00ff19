package rating

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// played are the facts of a race both seats took part in, at a person's
// pace, seat 1 winning.
func played() RaceFacts {
	return RaceFacts{Actions: [2]int{40, 38}, Played: 4 * time.Minute, MedianGap: [2]time.Duration{time.Second, 1200 * time.Millisecond}, Score: 1}
}

var established = Rating{Rating: 1700, Deviation: 60, Volatility: 0.06}

func TestDecideRace(t *testing.T) {
	start := [2]Rating{Start(), Start()}
	for _, c := range []struct {
		name   string
		change func(*RaceFacts)
		flag   string
	}{
		{"both took part", func(*RaceFacts) {}, ""},
		{"chosen deal", func(f *RaceFacts) { f.ChosenDeal = true }, FlagChosenDeal},
		{"resigned at once", func(f *RaceFacts) { f.Actions = [2]int{0, 1}; f.Played = 0 }, FlagTooShort},
		{"one seat under the least actions", func(f *RaceFacts) { f.Actions[1] = MinActions - 1 }, FlagTooShort},
		{"the least actions", func(f *RaceFacts) { f.Actions = [2]int{MinActions, MinActions} }, ""},
		{"under the least time", func(f *RaceFacts) { f.Played = MinPlay - time.Millisecond }, FlagTooShort},
		{"the least time", func(f *RaceFacts) { f.Played = MinPlay }, ""},
		{"one seat too fast", func(f *RaceFacts) { f.MedianGap[1] = MinMedianGap - time.Millisecond }, FlagTooFast},
		{"160 ms apart", func(f *RaceFacts) { f.MedianGap = [2]time.Duration{160 * time.Millisecond, 160 * time.Millisecond} }, FlagTooFast},
		{"the least gap", func(f *RaceFacts) { f.MedianGap[0] = MinMedianGap }, ""},
		{"the pair's races of the day used up", func(f *RaceFacts) { f.PairRated = PairPerDay }, FlagPairLimit},
		{"the pair's last race of the day", func(f *RaceFacts) { f.PairRated = PairPerDay - 1 }, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := played()
			c.change(&f)
			d := DecideRace(f, start)
			if d.Flag != c.flag || d.Rated != (c.flag == "") {
				t.Fatalf("decision %+v, want flag %q", d, c.flag)
			}
			if !d.Rated && d.After != start {
				t.Fatalf("an unrated race moved the ratings: %+v", d.After)
			}
			if d.Rated && (d.After[0].Rating <= 1500 || d.After[1].Rating >= 1500) {
				t.Fatalf("seat 1 won, yet %+v", d.After)
			}
		})
	}
}

func TestWeight(t *testing.T) {
	mid := Rating{Rating: 1500, Deviation: (StartDeviation + Provisional) / 2, Volatility: 0.06}
	for _, c := range []struct {
		name        string
		player, opp Rating
		want        float64
	}{
		{"established against established", established, established, 1},
		{"established against a new account", established, Start(), 0},
		{"established against one half way", established, mid, 0.5},
		{"established against one just provisional", established, Rating{Deviation: Provisional + 24}, 0.9},
		{"provisional against anyone", Start(), established, 1},
		{"provisional against provisional", Start(), Start(), 1},
	} {
		if got := Weight(c.player, c.opp); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: Weight = %v, want %v", c.name, got, c.want)
		}
	}
	if IsProvisional(established) || !IsProvisional(Start()) || IsProvisional(Rating{Deviation: Provisional}) {
		t.Error("IsProvisional")
	}
}

// randomFacts are the facts of a random race: short, fast, paced, at the
// pair's limit or not.
func randomFacts(r *rand.Rand) RaceFacts {
	f := RaceFacts{Actions: [2]int{r.IntN(3 * MinActions), r.IntN(3 * MinActions)}, Played: time.Duration(r.Int64N(int64(3 * MinPlay))),
		MedianGap: [2]time.Duration{time.Duration(r.Int64N(int64(2 * time.Second))), time.Duration(r.Int64N(int64(2 * time.Second)))},
		PairRated: r.IntN(PairPerDay + 2), Score: []float64{0, 0.5, 1}[r.IntN(3)]}
	if r.IntN(4) == 0 {
		f.Actions = [2]int{r.IntN(2), r.IntN(2)} // a resignation at once
	}
	return f
}

// short reports whether a race is one the rules call too short.
func short(f RaceFacts) bool {
	return f.Actions[0] < MinActions || f.Actions[1] < MinActions || f.Played < MinPlay
}

// TestFarmingProperty: among established players and fresh accounts
// playing random races in random pairs, (1) no race too short, too fast or
// over the pair's limit moves any rating, (2) a race against an account
// never rated moves no established rating at all, and (3) any rated race
// moves an established rating by at most the provisional opponent's weight
// of what the same race against an established one would.
func TestFarmingProperty(t *testing.T) {
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 99))
		players := make([]Rating, 12)
		for i := range players {
			if i < 4 {
				players[i] = Rating{Rating: 1400 + 100*float64(i), Deviation: 50 + 15*float64(i), Volatility: 0.06}
			} else {
				players[i] = Start()
			}
		}
		for range 400 {
			i, j := r.IntN(len(players)), r.IntN(len(players)-1)
			if j >= i {
				j++
			}
			f := randomFacts(r)
			before := [2]Rating{players[i], players[j]}
			d := DecideRace(f, before)
			if (short(f) || TooFast(f.MedianGap[0]) || TooFast(f.MedianGap[1]) || f.PairRated >= PairPerDay) && d.After != before {
				t.Fatalf("seed %d: %+v moved %+v to %+v", seed, f, before, d.After)
			}
			for s := range 2 {
				me, opp := before[s], before[1-s]
				if IsProvisional(me) || !d.Rated {
					continue
				}
				if opp == Start() && d.After[s] != me {
					t.Fatalf("seed %d: a never-rated opponent moved %+v to %+v", seed, me, d.After[s])
				}
				full := fullChange(me, opp, f.Score, s)
				if moved := math.Abs(d.After[s].Rating - me.Rating); moved > Weight(me, opp)*full+1e-9 {
					t.Fatalf("seed %d: %+v moved by %.2f against %+v; at most %.2f", seed, me, moved, opp, Weight(me, opp)*full)
				}
			}
			players[i], players[j] = d.After[0], d.After[1]
		}
	}
}

// fullChange is how far a race would move me's rating by Glicko-2 alone.
func fullChange(me, opp Rating, score float64, seat int) float64 {
	if seat == 1 {
		score = 1 - score
	}
	after, _ := Race(me, opp, score)
	return math.Abs(after.Rating - me.Rating)
}

// TestFarmScript: an established player beats seven fresh second accounts,
// each in the least race the rules rate (and again each in a race resigned
// at once, and in one paced 160 ms apart): the established rating does not
// move.
func TestFarmScript(t *testing.T) {
	main := established
	least := RaceFacts{Actions: [2]int{MinActions, MinActions}, Played: MinPlay, MedianGap: [2]time.Duration{MinMedianGap, MinMedianGap}, Score: 1}
	resigned := RaceFacts{Actions: [2]int{1, 0}, Score: 1}
	paced := RaceFacts{Actions: [2]int{30, 30}, Played: 10 * time.Second, MedianGap: [2]time.Duration{160 * time.Millisecond, 160 * time.Millisecond}, Score: 1}
	for range 7 {
		for _, f := range []RaceFacts{resigned, paced, least} {
			d := DecideRace(f, [2]Rating{main, Start()})
			main = d.After[0]
		}
	}
	if main != established {
		t.Fatalf("the farm moved the established rating to %+v", main)
	}
}
