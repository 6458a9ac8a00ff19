package storetest

import (
	"errors"
	"testing"
	"time"

	"dsol/internal/rating"
	"dsol/internal/store"
)

// finishedRace returns a race of alice and bob over with a result.
func finishedRace(id string, at time.Time) store.Game {
	g := NewRace(id, "alice", false, base)
	g.Seats[1], g.Status, g.Result, g.UpdatedAt = "bob", "over", []byte(`{"winner":1}`), at
	return g
}

func testFinishRace(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	for _, p := range []string{"alice", "bob", "carol"} {
		mustCreatePlayer(t, s, NewPlayer(p))
	}
	if r, err := s.Rating(ctx, "alice"); err != nil || r != store.StartRating() {
		t.Fatalf("Rating(never rated) = %+v, %v; want %+v", r, err, store.StartRating())
	}
	if r, err := s.Rating(ctx, "nobody"); err != nil || r != store.StartRating() {
		t.Fatalf("Rating(unknown) = %+v, %v; want the start rating", r, err)
	}
	// Two finished races of alice and bob without a decision, one
	// cancelled, two in play, one of carol's alone.
	for i, id := range []string{"f1", "f2", "cancelled", "playing", "r", "swapped", "later"} {
		g := NewRace(id, "alice", false, base.Add(time.Duration(i)*time.Second))
		g.Seats[1], g.Status = "bob", "playing"
		mustCreateGame(t, s, g)
	}
	mustCreateGame(t, s, NewRace("carols", "carol", false, base))
	for _, id := range []string{"f1", "f2"} {
		if err := s.FinishRace(ctx, finishedRace(id, base), nil); err != nil {
			t.Fatalf("FinishRace(%s, no decision): %v", id, err)
		}
		if _, err := s.RaceRating(ctx, id); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("RaceRating(%s) without a decision: %v, want ErrNotFound", id, err)
		}
	}
	c := mustGame(t, s, "cancelled")
	c.Status = "over"
	if err := s.UpdateGame(ctx, c); err != nil {
		t.Fatal(err)
	}
	at := base.Add(time.Hour)
	after := [2]store.Rating{{Rating: 1662.3, Deviation: 290.3, Volatility: 0.05999}, {Rating: 1337.7, Deviation: 290.3, Volatility: 0.06}}
	calls := 0
	decide := func(current [2]store.Rating, pairRated int) *store.RaceRating {
		calls++
		if current != [2]store.Rating{store.StartRating(), store.StartRating()} {
			t.Errorf("decide: current %+v, want the start ratings", current)
		}
		if pairRated != 0 {
			t.Errorf("decide: pairRated %d, want 0 (no race of the two was rated)", pairRated)
		}
		return &store.RaceRating{Players: [2]string{"alice", "bob"}, Rated: true,
			MedianGap: [2]time.Duration{812 * time.Millisecond, -time.Millisecond},
			Before:    current, After: after, At: at}
	}
	g := finishedRace("r", at)
	g.CreatedAt = mustGame(t, s, "r").CreatedAt
	if err := s.FinishRace(ctx, g, decide); err != nil {
		t.Fatalf("FinishRace: %v", err)
	}
	if d := EqualGame(mustGame(t, s, "r"), g); d != "" {
		t.Fatalf("FinishRace did not store the race's end: %s", d)
	}
	want := store.RaceRating{GameID: "r", Players: [2]string{"alice", "bob"}, Rated: true,
		MedianGap: [2]time.Duration{812 * time.Millisecond, -time.Millisecond},
		Before:    [2]store.Rating{store.StartRating(), store.StartRating()}, After: after, At: at}
	want.After[0].Races, want.After[1].Races = 1, 1
	rr, err := s.RaceRating(ctx, "r")
	if err != nil || !rr.At.Equal(want.At) {
		t.Fatalf("RaceRating = %+v, %v; want %+v", rr, err, want)
	}
	rr.At = want.At
	if rr != want {
		t.Fatalf("RaceRating = %+v,\nwant %+v", rr, want)
	}
	for i, id := range []string{"alice", "bob"} {
		if r, err := s.Rating(ctx, id); err != nil || r != want.After[i] {
			t.Fatalf("Rating(%s) = %+v, %v; want %+v", id, r, err, want.After[i])
		}
	}
	// Once decided, a race is never rated again.
	if err := s.FinishRace(ctx, g, decide); err != nil {
		t.Fatalf("FinishRace again: %v", err)
	}
	if calls != 1 {
		t.Fatalf("decide called %d times; a decided race is not decided again", calls)
	}
	if r, _ := s.Rating(ctx, "alice"); r != want.After[0] {
		t.Fatalf("Rating(alice) after a second FinishRace = %+v, want %+v", r, want.After[0])
	}
	// A decision not to rate is kept and changes no rating.
	g2 := finishedRace("f2", at)
	g2.ID = "playing"
	if err := s.FinishRace(ctx, g2, func(current [2]store.Rating, pairRated int) *store.RaceRating {
		if pairRated != 1 {
			t.Errorf("decide(playing): pairRated %d, want 1 (r, rated at the same time)", pairRated)
		}
		return &store.RaceRating{Players: g2.Seats, Flag: "too_fast", Before: current, After: current, At: at}
	}); err != nil {
		t.Fatal(err)
	}
	// The pair's rated races are counted in either seat order, over the
	// rating.PairWindow before the race's end: r (rated), not "playing"
	// (kept unrated).
	for _, c := range []struct {
		id   string
		end  time.Time
		want int
	}{
		{"swapped", at.Add(time.Hour), 1},
		{"later", at.Add(rating.PairWindow), 0},
	} {
		g := finishedRace(c.id, c.end)
		g.Seats = [2]string{"bob", "alice"}
		if err := s.FinishRace(ctx, g, func(current [2]store.Rating, pairRated int) *store.RaceRating {
			if pairRated != c.want {
				t.Errorf("decide(%s): pairRated %d, want %d", c.id, pairRated, c.want)
			}
			return &store.RaceRating{Players: g.Seats, Flag: "too_short", Before: current, After: current, At: c.end}
		}); err != nil {
			t.Fatal(err)
		}
	}
	if rr, err := s.RaceRating(ctx, "playing"); err != nil || rr.Rated || rr.Flag != "too_fast" || rr.After != want.After {
		t.Fatalf("RaceRating(unrated) = %+v, %v; want the flag and the ratings unchanged", rr, err)
	}
	if r, _ := s.Rating(ctx, "bob"); r != want.After[1] {
		t.Fatalf("Rating(bob) after an unrated race = %+v, want %+v", r, want.After[1])
	}
	mustBeErr(t, "FinishRace(nope)", s.FinishRace(ctx, finishedRace("nope", at), decide), store.ErrNotFound)
}
