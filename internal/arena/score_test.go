package arena

import (
	"testing"
	"time"

	"dsol/internal/store"
)

// TestScoring: a win 2, a draw 1, a loss 0; from the third win in a row
// each win 4 until the player fails to win; an idle seat scores 0 and
// breaks its streak whatever the result.
func TestScoring(t *testing.T) {
	win := func(seat int) Race { return Race{Seats: [2]string{"a", "b"}, Over: true, Counted: true, Winner: seat} }
	idleWin := win(1)
	idleWin.Idle[0] = true
	tests := []struct {
		name   string
		races  []Race
		points []int // of player a, race by race
		streak int
	}{
		{"win draw loss", []Race{win(1), win(0), win(2)}, []int{2, 1, 0}, 0},
		{"a streak", []Race{win(1), win(1), win(1), win(1)}, []int{2, 2, 4, 4}, 4},
		{"a draw breaks it", []Race{win(1), win(1), win(1), win(0), win(1), win(1), win(1)}, []int{2, 2, 4, 1, 2, 2, 4}, 3},
		{"an idle win scores nothing", []Race{win(1), win(1), idleWin, win(1)}, []int{2, 2, 0, 2}, 1},
		{"uncounted races are passed over", []Race{win(1), {Seats: [2]string{"a", "b"}, Over: true}, win(1), win(1)}, []int{2, 0, 2, 4}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ta Tally
			total, races := 0, 0
			for i, r := range tc.races {
				if !r.Counted {
					continue
				}
				p := ta.Add(r, 1)
				if p != tc.points[i] {
					t.Fatalf("race %d: %d points, want %d", i, p, tc.points[i])
				}
				total += p
				races++
			}
			if ta.Streak != tc.streak || ta.Score != total || ta.Races != races {
				t.Fatalf("tally %+v, want score %d, %d races, streak %d", ta, total, races, tc.streak)
			}
			if got := Score(tc.races)["a"]; *got != ta {
				t.Fatalf("Score = %+v, want %+v", *got, ta)
			}
		})
	}
}

// TestRaceOf: the winner from the stored result, a draw for a null one, no
// count without a result, and a seat idle when its first action came later
// than IdleWithin or never.
func TestRaceOf(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := RaceOf(store.ArenaRace{GameID: "r", Seats: [2]string{"a", "b"}, Status: "over", Result: []byte(`{"winner":2,"reason":"out"}`),
		CreatedAt: at, First: [2]time.Time{at.Add(IdleWithin + time.Millisecond), at.Add(IdleWithin)}})
	if !r.Over || !r.Counted || r.Winner != 2 || r.Idle != [2]bool{true, false} {
		t.Fatalf("RaceOf = %+v", r)
	}
	r = RaceOf(store.ArenaRace{Status: "over", Result: []byte(`{"winner":null}`), CreatedAt: at, First: [2]time.Time{at, at}})
	if !r.Counted || r.Winner != 0 || r.Idle != [2]bool{} {
		t.Fatalf("a draw: %+v", r)
	}
	if r := RaceOf(store.ArenaRace{Status: "over", CreatedAt: at}); r.Counted || r.Idle != [2]bool{true, true} {
		t.Fatalf("no result: %+v", r)
	}
	if r := RaceOf(store.ArenaRace{Status: "playing", CreatedAt: at}); r.Over || r.Counted {
		t.Fatalf("in play: %+v", r)
	}
}

// TestRank: score, then wins, then fewer races, then the earlier join.
func TestRank(t *testing.T) {
	es := []Entry{
		{Player: "late", Tally: Tally{Score: 4, Wins: 2, Races: 2}, Joined: 5},
		{Player: "more races", Tally: Tally{Score: 4, Wins: 2, Races: 3}, Joined: 0},
		{Player: "top", Tally: Tally{Score: 6}, Joined: 9},
		{Player: "early", Tally: Tally{Score: 4, Wins: 2, Races: 2}, Joined: 1},
		{Player: "draws", Tally: Tally{Score: 4, Wins: 0, Races: 4}, Joined: 2},
	}
	Rank(es)
	want := []string{"top", "early", "late", "more races", "draws"}
	for i, e := range es {
		if e.Player != want[i] {
			t.Fatalf("rank %d: %s, want %s (%v)", i, e.Player, want[i], es)
		}
	}
}
