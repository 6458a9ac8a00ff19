package live

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/race"
	"dsol/internal/solo"
	"dsol/internal/store"
)

// logReads counts how a store's action log is read: from its start (a
// whole replay) or from a later seq (after a snapshot).
type logReads struct {
	*flaky
	whole, tail atomic.Int64
}

func (r *logReads) Actions(ctx context.Context, game string, after int64) ([]store.Action, error) {
	if after == 0 {
		r.whole.Add(1)
	} else {
		r.tail.Add(1)
	}
	return r.flaky.Actions(ctx, game, after)
}

// countReads has the env's registry read the store through a logReads.
func countReads(tb testing.TB, e *env) *logReads {
	tb.Helper()
	r := &logReads{flaky: e.st}
	e.cfg.Store = r
	e.restart(tb)
	return r
}

// evictedView evicts game id's table and returns its view for viewer once
// it came back from the store.
func evictedView(tb testing.TB, e *env, id string, viewer int) (int64, protocol.View) {
	tb.Helper()
	e.reg.Evict([]string{id})
	seq, v, err := e.reg.Snapshot(context.Background(), id, viewer)
	if err != nil {
		tb.Fatal(err)
	}
	return seq, v
}

// TestReloadEquality: a table evicted after any action of a game comes
// back from the store (its snapshot and the actions after it, or the whole
// log) with the same view for every viewer, at every seq of random solo
// games (undos included) and of bot races, on both stores.
func TestReloadEquality(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		e := mustEnvOn(t, open(t))
		reads := countReads(t, e)
		t.Run("solo", func(t *testing.T) {
			id := mustGame(t, e, "s1", code)
			g, err := solo.New(mustCode(t, code))
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(5, 6))
			for step := range 3 * SnapshotEvery {
				a, ok := legal(g, rng)
				if step%9 == 8 {
					a, ok = klondike.Simple(klondike.Undo), true
				}
				if !ok {
					break
				}
				if _, err := g.Apply(a); err != nil {
					continue
				}
				mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: a})
				seq, before := mustSnapshot(t, e.reg, id)
				seq2, after := evictedView(t, e, id, 1)
				if seq2 != seq || !reflect.DeepEqual(before, after) {
					t.Fatalf("seq %d: after a reload, seq %d and the view\n%+v\nwant\n%+v", seq, seq2, after, before)
				}
			}
		})
		t.Run("race", func(t *testing.T) {
			id := "r1"
			mustHumanRace(t, e, id, "DR1-D1UI-QWERTYU")
			shadow, err := race.New(mustCode(t, "DR1-D1UI-QWERTYU"), race.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var bot race.Bot
			rng := rand.New(rand.NewPCG(7, 8))
			for shadow.Status() == race.Playing {
				seat := 1 + rng.IntN(2)
				a, ok := bot.Next(shadow.Seen(seat))
				if !ok {
					if a, ok = bot.Next(shadow.Seen(3 - seat)); !ok {
						break
					}
					seat = 3 - seat
				}
				if _, err := shadow.Apply(seat, a); err != nil {
					t.Fatal(err)
				}
				mustDo(t, e.reg, id, protocol.Command{Seat: seat, Action: a})
				for viewer := range 3 {
					seq, before, err := e.reg.Snapshot(context.Background(), id, viewer)
					if err != nil {
						t.Fatal(err)
					}
					seq2, after := evictedView(t, e, id, viewer)
					if seq2 != seq || !reflect.DeepEqual(before, after) {
						t.Fatalf("seq %d, viewer %d: after a reload, seq %d and the view\n%+v\nwant\n%+v", seq, viewer, seq2, after, before)
					}
				}
			}
		})
		if reads.tail.Load() == 0 {
			t.Fatal("no table came back from a snapshot")
		}
	})
}

// mustHumanRace stores a simultaneous race of code in play between two new
// players.
func mustHumanRace(tb testing.TB, e *env, id, code string) {
	tb.Helper()
	ctx := context.Background()
	now := e.clock.Now()
	for _, p := range []string{"a-" + id, "b-" + id} {
		if err := e.st.CreatePlayer(ctx, store.Player{ID: p, Name: "P", TokenHash: []byte(p), CreatedAt: now}); err != nil {
			tb.Fatal(err)
		}
	}
	opts, err := json.Marshal(game.RaceOptions{Turns: "simultaneous", Series: 1})
	if err != nil {
		tb.Fatal(err)
	}
	g := store.Game{ID: id, Kind: "race", Code: code, Options: opts, Status: "playing", Seats: [2]string{"a-" + id, "b-" + id},
		SeriesID: id, SeriesGame: 1, Salt: make([]byte, 16), CreatedAt: now, UpdatedAt: now}
	if err := e.st.CreateGame(ctx, g); err != nil {
		tb.Fatal(err)
	}
}

// stateAt replays game id's stored log to seq and returns its engine and
// time of play then, as the table would have snapshotted them.
func stateAt(tb testing.TB, e *env, id string, seq int64) []byte {
	tb.Helper()
	g, err := e.st.Game(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	eng, err := engine.NewSolo(g)
	if err != nil {
		tb.Fatal(err)
	}
	acts, err := e.st.Actions(context.Background(), id, 0)
	if err != nil {
		tb.Fatal(err)
	}
	var play time.Duration
	for i, a := range acts[:seq] {
		if i > 0 {
			play = store.AddGap(play, acts[i-1].At, a.At)
		}
		act, err := klondike.DecodeAction(a.Action)
		if err == nil {
			_, err = eng.Apply(a.Seat, act)
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	return snapshotOf(eng, seq, play)
}

// TestSnapshotPassedOver: a snapshot the table cannot read (damaged, of
// another format, cut short, of a seq past the log) is passed over: the
// table replays the whole log and comes back the same. A good one is read
// and the log after it replayed.
func TestSnapshotPassedOver(t *testing.T) {
	e := mustEnv(t)
	reads := countReads(t, e)
	seedSoloSnapshots(t, e, "g1", code, 300, false) // no snapshot: the ones below are the newest
	seq, want := mustSnapshot(t, e.reg, "g1")
	for i, c := range []struct {
		name string
		seq  int64
		edit func(b []byte) []byte
	}{
		{"good", 260, func(b []byte) []byte { return b }},
		{"a byte flipped", 261, func(b []byte) []byte { b[len(b)-7] ^= 1; return b }},
		{"another format", 262, func(b []byte) []byte { b[0] = snapshotVersion + 1; return b }},
		{"cut short", 263, func(b []byte) []byte { return b[:len(b)/2] }},
		{"another seq inside", 264, func(b []byte) []byte { return stateAt(t, e, "g1", 200) }},
		{"past the log", 1000, func(b []byte) []byte { return b }},
	} {
		t.Run(c.name, func(t *testing.T) {
			state := c.edit(stateAt(t, e, "g1", min(c.seq, 300)))
			if err := e.st.PutSnapshots(context.Background(), []store.Snapshot{{GameID: "g1", Seq: c.seq, State: state, At: e.clock.Now()}}); err != nil {
				t.Fatal(err)
			}
			whole := reads.whole.Load()
			seq2, got := evictedView(t, e, "g1", 1)
			if seq2 != seq || !reflect.DeepEqual(got, protocol.View(want)) {
				t.Fatalf("seq %d, view\n%+v\nwant\n%+v", seq2, got, want)
			}
			if replayed := reads.whole.Load() > whole; replayed != (i > 0) {
				t.Fatalf("the whole log replayed: %v", replayed)
			}
		})
	}
}
