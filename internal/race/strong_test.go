package race

import (
	"math/rand/v2"
	"testing"

	"dsol/internal/cards"
	"dsol/internal/hint"
	k "dsol/internal/klondike"
)

// tiny is a cheap budget for the strong bot's tests: few arrangements and
// short playouts, so that the tests stay quick.
var tiny = ThinkOptions{Samples: 3, Steps: 200}

// strongSeatBot is a StrongBot with the tiny budget, seeded by the number
// of questions it has been asked (the same in two races with the same
// history, as a table's seq is); hinted counts the actions that were the
// hint's.
func strongSeatBot(hinted *int) seatBot {
	b := &StrongBot{Options: tiny}
	calls := 0
	return func(s Seen) (k.Action, bool) {
		calls++
		var h hint.Hint
		if b.Wants(s) {
			h = Think(s, hint.Seed("strong", int64(calls)), tiny)
		}
		a, ok := b.Play(s, h)
		if ok && h.OK && a == h.Action {
			*hinted++
		}
		return a, ok
	}
}

// TestPropertyStrongBotSeesOnlySeen: the strong bot, too, decides only from
// what its seat has seen: the pairs of races of TestPropertyBotSeesOnlySeen
// with seat 2 played by the strong bot; hidden cards moved, the same
// history must give the same actions, hints included.
func TestPropertyStrongBotSeesOnlySeen(t *testing.T) {
	n := 12
	if raceDetector {
		n = 4
	}
	hinted := 0
	compared := seesOnlySeen(t, n, 4242, func() seatBot { return strongSeatBot(&hinted) })
	t.Logf("%d of the strong bot's actions (in both races of the pairs) were the hint's", hinted)
	if compared < 20*n || hinted < 10*n {
		t.Fatalf("too few actions compared (%d) or hinted (%d)", compared, hinted)
	}
}

// TestStrongBotRaces plays strong-bot-vs-bot races over random codes in both
// turn modes, the strong bot in either seat, and checks every invariant
// after every action: every action is accepted and every race ends.
func TestStrongBotRaces(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2026))
	hinted, races := 0, 6
	if raceDetector {
		races = 2
	}
	for i := range races {
		code := cards.Code{Kind: cards.Race, Draw: 1 + 2*rng.IntN(2), Single: rng.IntN(3) == 0,
			Mirrored: rng.IntN(2) == 0, Deal: rng.Uint64N(cards.DealCount)}
		opts := Options{Turns: Turns(i % 2), First: FirstRandom}
		opts.FirstSeat = opts.First.Seat(func() int { return rng.IntN(2) })
		r, err := New(code, opts)
		if err != nil {
			t.Fatal(err)
		}
		strong := 1 + i/2%2
		var plain Bot
		bots := [2]seatBot{plain.Next, strongSeatBot(&hinted)}
		if strong == 1 {
			bots[0], bots[1] = bots[1], bots[0]
		}
		c := newChecker(t, r)
		for n := 0; r.Status() == Playing; n++ {
			if n > 20000 {
				t.Fatalf("%s %v: no end after %d actions\n%s", code, opts.Turns, r.Actions(), r.Diagram())
			}
			first := 1 + rng.IntN(2)
			for _, seat := range [2]int{first, 3 - first} {
				a, ok := bots[seat-1](r.Seen(seat))
				if !ok {
					continue
				}
				out, err := r.Apply(seat, a)
				if err != nil {
					t.Fatalf("%s: seat %d's %s refused: %v\n%s", code, seat, a, err, r.Diagram())
				}
				c.check(seat, a, out)
				break
			}
		}
		c.checkResult()
		res := r.Result()
		t.Logf("%s %v, strong in seat %d: %s after %d actions, counts %v, winner %d", code, opts.Turns, strong, res.Reason, r.Actions(), res.Counts, res.Winner)
	}
	if hinted < 50 {
		t.Fatalf("only %d of the strong bot's actions were the hint's", hinted)
	}
}

// TestStrongBotTurns: the strong bot keeps the plain bot's turn rules. It
// wants no hint off its turn, once the race is over, or when its seat is
// shown blocked, and then answers as the plain bot does: nothing off turn,
// a pass when blocked in an alternating race, a wait in a simultaneous one.
// With no hint it plays the plain bot's choice; with one, the hint's.
func TestStrongBotTurns(t *testing.T) {
	blocked := "seat 1\nc1: 5D\nw: 9S\nseat 2\nc1: AS\n"
	for _, tc := range []struct {
		name, pos string
		opts      Options
		want      k.Action
		ok        bool
	}{
		{"blocked waits", blocked, Options{}, k.Action{}, false},
		{"blocked passes", blocked, alt1, k.Simple(k.Pass), true},
		{"not its turn", "seat 1\nc1: AD\nseat 2\nc1: AS\n", Options{Turns: Alternating, First: FirstOpponent}, k.Action{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustPosition(t, d1u, tc.opts, tc.pos)
			var b StrongBot
			if b.Wants(r.Seen(1)) {
				t.Fatal("the bot wants a hint")
			}
			a, ok := b.Next(r.Seen(1), 1)
			if ok != tc.ok || a != tc.want {
				t.Fatalf("the bot chose %s (%v), want %s (%v)", a, ok, tc.want, tc.ok)
			}
		})
	}
	r := mustPosition(t, d1u, Options{}, "seat 1\nc1: 4C | 9H\nc2: TS\nc3: AD\nw: 8C\ns: 5D\nseat 2\nc1: AS\n")
	var b StrongBot
	var plain Bot
	if !b.Wants(r.Seen(1)) {
		t.Fatal("the bot wants no hint in play")
	}
	want, _ := plain.Next(r.Seen(1))
	if a, ok := b.Play(r.Seen(1), hint.Hint{}); !ok || a != want {
		t.Fatalf("with no hint the bot chose %s (%v), the plain bot %s", a, ok, want)
	}
	draw := hint.Hint{Action: k.Simple(k.Draw), OK: true}
	if a, ok := b.Play(r.Seen(1), draw); !ok || a != draw.Action {
		t.Fatalf("with a hint the bot chose %s (%v)", a, ok)
	}
}

// TestStrongBotIdle: hint actions that never move the progress marker are
// played StrongIdle times; then the plain bot has the seat until the marker
// moves (a card goes up here), and the hints are wanted again.
func TestStrongBotIdle(t *testing.T) {
	r := mustPosition(t, d1u, Options{}, "seat 1\nc1: 4C | 9H\nc2: TS\nw: 8C\ns: AC 5D\nseat 2\nc1: AS\n")
	var b StrongBot
	draw := hint.Hint{Action: k.Simple(k.Draw), OK: true}
	s := r.Seen(1)
	for i := range StrongIdle {
		if !b.Wants(s) {
			t.Fatalf("the bot wants no hint after %d", i)
		}
		b.Play(s, draw)
	}
	if b.Wants(s) {
		t.Fatalf("the bot still wants hints after %d without progress", StrongIdle)
	}
	var plain Bot
	want, _ := plain.Next(s)
	if a, ok := b.Play(s, draw); !ok || a != want {
		t.Fatalf("past its patience with hints the bot chose %s (%v), the plain bot %s", a, ok, want)
	}
	mustApply(t, r, 1, k.Simple(k.Draw))
	mustApply(t, r, 1, move("w", "f", 1))
	if !b.Wants(r.Seen(1)) {
		t.Fatal("a card went up, but the bot wants no hint")
	}
}
