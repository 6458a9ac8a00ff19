package live

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"dsol/internal/game"
	"dsol/internal/hint"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/race"
	"dsol/internal/store"
)

// TestStrongBotRaces plays races against the strong bot to the end through
// the table: seat 1 by the plain bot with Registry.Do, seat 2 by the
// table's strong bot, whose think time passes at once and whose searches
// run off the table through the registry's ThinkFunc (a cheap budget here;
// for one race a ThinkFunc that never finds a free slot, so that every
// move is the plain bot's). Every race ends with a result, the log replays
// to it, and the strong bot asked for its searches.
func TestStrongBotRaces(t *testing.T) {
	for i, tc := range []struct {
		code, turns string
		slots       bool
	}{
		{"DR1-D1UI-HELLOXY", "alternating", true},
		{"DR1-D3UI-HELLOXY", "alternating", false},
		{"DR1-D1UM-AAAAAAB", "simultaneous", true},
	} {
		t.Run(fmt.Sprintf("%s-%s-%v", tc.code, tc.turns, tc.slots), func(t *testing.T) {
			e := mustEnv(t)
			var asked, thought atomic.Int64
			e.cfg.AfterFunc = immediate
			e.cfg.Think = func(s race.Seen, seed uint64) (hint.Hint, bool) {
				asked.Add(1)
				if !tc.slots {
					return hint.Hint{}, false
				}
				thought.Add(1)
				return race.Think(s, seed, race.ThinkOptions{Samples: 3, Steps: 300}), true
			}
			e.restart(t)
			id := fmt.Sprintf("strong%d", i)
			opts := race.Options{Turns: race.Simultaneous}
			ro := game.RaceOptions{Turns: tc.turns, Series: 1, Bot: "strong"}
			if tc.turns == "alternating" {
				opts = race.Options{Turns: race.Alternating, First: race.FirstCreator, FirstSeat: 1}
				ro.First, ro.FirstSeat = "creator", 1
			}
			mustBotRace(t, e, id, tc.code, ro)
			shadow, err := race.New(mustCode(t, tc.code), opts)
			if err != nil {
				t.Fatal(err)
			}
			playAgainstBot(t, e.reg, id, shadow)
			res := shadow.Result()
			g, err := e.st.Game(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			var stored struct {
				Counts [2]int `json:"counts"`
				Winner *int   `json:"winner"`
			}
			if err := json.Unmarshal(g.Result, &stored); err != nil || g.Status != "over" || stored.Counts != res.Counts {
				t.Fatalf("stored %s %s (%v), the log replays to %+v", g.Status, g.Result, err, res)
			}
			if asked.Load() == 0 || (thought.Load() == 0) == tc.slots {
				t.Fatalf("the bot asked for %d searches, %d worked out", asked.Load(), thought.Load())
			}
			t.Logf("%s after %d actions: %+v; %d searches asked for", res.Reason, shadow.Actions(), res, asked.Load())
		})
	}
}

// mustBotRace stores a race of code in play between a new player in seat 1
// and the server's bot in seat 2.
func mustBotRace(tb testing.TB, e *env, id, code string, o game.RaceOptions) {
	tb.Helper()
	ctx := context.Background()
	now := e.clock.Now()
	for _, p := range []string{"p-" + id, store.BotPlayerID} {
		if err := e.st.CreatePlayer(ctx, store.Player{ID: p, Name: "P", TokenHash: []byte(p), CreatedAt: now}); err != nil && p != store.BotPlayerID {
			tb.Fatal(err)
		}
	}
	opts, err := json.Marshal(o)
	if err != nil {
		tb.Fatal(err)
	}
	g := store.Game{ID: id, Kind: "race", Code: code, Options: opts, Status: "playing", Seats: [2]string{"p-" + id, store.BotPlayerID},
		SeriesID: id, SeriesGame: 1, Salt: make([]byte, 16), CreatedAt: now, UpdatedAt: now}
	if err := e.st.CreateGame(ctx, g); err != nil {
		tb.Fatal(err)
	}
}

// playAgainstBot plays seat 1 of race id with the plain bot until the race
// is over, following every event on a subscription and in shadow (the same
// race, replayed from the events). Seat 1 acts when its bot has an action
// in the shadow; otherwise it waits for the table's next event, and in a
// simultaneous race, when none comes within a while (the bot waits too),
// asks its bot again, whose patience ends such a wait with a resignation.
// An action the table refuses because the shadow was behind is dropped.
func playAgainstBot(t *testing.T, reg *Registry, id string, shadow *race.Race) {
	t.Helper()
	ctx := context.Background()
	tb, err := reg.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := tb.Subscribe(ctx, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	applied := int64(0)
	apply := func(ev protocol.Event) {
		if ev.Seq <= applied {
			return
		}
		if ev.Seq != applied+1 {
			t.Fatalf("event %d after %d", ev.Seq, applied)
		}
		a, err := klondike.DecodeAction(ev.Action)
		if err == nil {
			_, err = shadow.Apply(ev.Seat, a)
		}
		if err != nil {
			t.Fatalf("replay seq %d (%s): %v", ev.Seq, ev.Action, err)
		}
		applied = ev.Seq
	}
	for _, ev := range sub.Start().Missed {
		apply(ev)
	}
	var me race.Bot
	updates := feed(sub)
	deadline := time.Now().Add(2 * time.Minute)
	for shadow.Status() == race.Playing {
		if time.Now().After(deadline) {
			t.Fatalf("the race did not end in time: %d actions", shadow.Actions())
		}
		if a, ok := me.Next(shadow.Seen(1)); ok {
			seq := applied
			// refused (a conflict: the bot acted since): dropped
			_, _ = reg.Do(ctx, id, protocol.Command{Seat: 1, Action: a, Seq: &seq})
		}
		wait := time.Minute
		if shadow.Options().Turns == race.Simultaneous {
			wait = 2 * time.Second
		}
		wctx, cancel := context.WithTimeout(ctx, wait)
		u, ok := updates.Recv(wctx)
		cancel()
		switch {
		case ok && u.Frame != nil:
			apply(u.Frame.Event)
		case !ok && wctx.Err() == nil:
			t.Fatalf("subscription closed: %v", sub.Err())
		}
		for _, u := range updates.Take() {
			if u.Frame != nil {
				apply(u.Frame.Event)
			}
		}
	}
}

// immediate is an AfterFunc whose time passes at once (on a goroutine of
// its own, as a timer's).
func immediate(_ time.Duration, f func()) func() bool {
	var stopped atomic.Bool
	go func() {
		if !stopped.Load() {
			f()
		}
	}()
	return func() bool { return !stopped.Swap(true) }
}

// TestStrongBotThinksAgain: the strong bot's search runs off the table, so
// the opponent may act meanwhile; the answer is then not played on the
// position it was not worked out for, and the bot thinks again at once on
// the new one.
func TestStrongBotThinksAgain(t *testing.T) {
	e := mustEnv(t)
	calls := make(chan race.Seen, 2)
	release := make(chan struct{})
	var n atomic.Int32
	e.cfg.AfterFunc = immediate
	e.cfg.Think = func(s race.Seen, _ uint64) (hint.Hint, bool) {
		switch n.Add(1) {
		case 1:
			calls <- s
			<-release
			return hint.Hint{Action: klondike.Simple(klondike.Draw), OK: true}, true
		case 2:
			calls <- s
		}
		return hint.Hint{}, false // no slot: the plain bot's move
	}
	e.restart(t)
	mustBotRace(t, e, "again", "DR1-D1UI-HELLOXY", game.RaceOptions{Turns: "simultaneous", Series: 1, Bot: "strong"})
	if _, err := e.reg.Get(context.Background(), "again"); err != nil {
		t.Fatal(err)
	}
	first := <-calls
	mustDo(t, e.reg, "again", protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)})
	close(release)
	second := <-calls
	if second.Boards[1] != first.Boards[1] || second.Boards[0] == first.Boards[0] {
		t.Fatal("the bot's second search is not on the position after seat 1's draw alone")
	}
}
