package arena

import (
	"fmt"
	"testing"
	"time"

	"dsol/internal/game"
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
// than IdleWithin, or never in a race that lasted that long.
func TestRaceOf(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := RaceOf(store.ArenaRace{GameID: "r", Seats: [2]string{"a", "b"}, Status: "over", Result: []byte(`{"winner":2,"reason":"out"}`),
		CreatedAt: at, EndedAt: at.Add(time.Minute), First: [2]time.Time{at.Add(IdleWithin + time.Millisecond), at.Add(IdleWithin)}})
	if !r.Over || !r.Counted || r.Winner != 2 || r.Idle != [2]bool{true, false} {
		t.Fatalf("RaceOf = %+v", r)
	}
	r = RaceOf(store.ArenaRace{Status: "over", Result: []byte(`{"winner":null}`), CreatedAt: at, EndedAt: at.Add(time.Hour), First: [2]time.Time{at, at}})
	if !r.Counted || r.Winner != 0 || r.Idle != [2]bool{} {
		t.Fatalf("a draw: %+v", r)
	}
	if r := RaceOf(store.ArenaRace{Status: "over", CreatedAt: at, EndedAt: at.Add(time.Hour)}); r.Counted || r.Idle != [2]bool{true, true} {
		t.Fatalf("no result, no action in an hour: %+v", r)
	}
	// The opponent resigned after 3 s: a seat that had not acted yet had no
	// time to; one that acted is not idle either.
	r = RaceOf(store.ArenaRace{Status: "over", Result: []byte(`{"winner":2}`), CreatedAt: at, EndedAt: at.Add(3 * time.Second), First: [2]time.Time{at.Add(time.Second)}})
	if r.Idle != [2]bool{} || r.Winner != 2 {
		t.Fatalf("a race of 3 s: %+v", r)
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

// TestPusher: a push's bytes are those of the view encoded whole, with the
// receiver's own row after the top rows when it is not among them, and
// their You; a receiver who did not join gets the top rows alone.
func TestPusher(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var rows []Row
	for i := range 5 {
		rows = append(rows, Row{Rank: i + 1, Player: game.PlayerRef{ID: fmt.Sprint("p", i), Name: "Ö \"quoted\""}, Score: 10 - i, Fire: i == 0})
	}
	for _, top := range []int{0, 2, 5} {
		v := View{ID: "a", Status: Running, StartsAt: at, EndsAt: at.Add(time.Hour), Now: at, Minutes: 60, Draw: 1, Redeal: "single",
			Players: 5, Standings: rows[:top]}
		p := newPusher(v)
		for _, c := range []struct {
			row Row
			you *You
		}{{rows[0], &You{Rank: 1, Race: "r"}}, {rows[4], &You{Rank: 5, Paused: true, Idle: true}}, {Row{}, nil}} {
			want := v
			want.Standings = append([]Row{}, v.Standings...)
			if c.you != nil {
				want.You = c.you
				if c.row.Rank > top {
					want.Standings = append(want.Standings, c.row)
				}
			}
			if got, w := string(p.message(c.row, c.you)), string(encode(Message{Type: "arena", Arena: &want})); got != w {
				t.Fatalf("top %d:\n got %s\nwant %s", top, got, w)
			}
		}
	}
}

// TestDiff: standings that match their races have no difference; a row
// off by a point, or a player with races but no points, is named.
func TestDiff(t *testing.T) {
	races := []Race{{Seats: [2]string{"a", "b"}, Over: true, Counted: true, Winner: 1}}
	rows := []Row{{Player: game.PlayerRef{ID: "a"}, Score: 2, Races: 1, Wins: 1, Streak: 1}, {Player: game.PlayerRef{ID: "b"}, Races: 1}}
	if d := Diff(rows, races); len(d) != 0 {
		t.Fatalf("matching standings: %v", d)
	}
	rows[0].Score, rows[1].Races = 3, 0
	if d := Diff(rows, races); len(d) != 2 {
		t.Fatalf("two rows off: %v", d)
	}
}
