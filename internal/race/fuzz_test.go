package race

import (
	"errors"
	"math/rand/v2"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// maxFuzzActions bounds one input, so that the fuzzer keeps its pace.
const maxFuzzActions = 400

var fuzzPiles = [...]k.Pile{0, 1, 2, 3, 4, 5, 6, 7, 8, k.Waste, k.Stock,
	k.F1, k.F1 + 1, k.F1 + 2, k.F1 + 3, k.F1 + 4, k.F1 + 5, k.F1 + 6, k.F1 + 7, k.AnyF}

// FuzzRaceActions plays random action sequences from both seats: the first
// three bytes choose the code and options, then each pair of bytes is one
// action (a raw move, tap, dtap, draw, recycle, pass, undo, resign, claim or
// forfeit, or the bot's choice to get deeper into the game). It never panics;
// a refused action changes nothing and carries a *klondike.Error; accepted
// ones keep every invariant of the property test.
func FuzzRaceActions(f *testing.F) {
	f.Add([]byte{0, 1, 0})
	f.Add([]byte{7, 3, 0x1f, 0, 0, 1, 0, 2, 5, 10, 1, 12, 3, 14, 0, 0, 0})
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 8; i++ {
		seed := make([]byte, 3+2*rng.IntN(300))
		for j := range seed {
			seed[j] = byte(rng.IntN(256))
			if j > 3 && j%2 == 1 && rng.IntN(3) > 0 {
				seed[j] &^= 0x1e // mostly bot moves
			}
		}
		f.Add(seed)
	}
	f.Fuzz(fuzzBody)
}

func fuzzBody(t *testing.T, data []byte) {
	if len(data) < 3 {
		return
	}
	flags := data[2]
	code := cards.Code{Kind: cards.Race, Draw: 1 + 2*int(flags&1), Single: flags&2 != 0,
		Mirrored: flags&4 != 0, Deal: uint64(data[0])<<8 | uint64(data[1])}
	opts := Options{SoloOutBonus: flags&16 != 0}
	if flags&8 != 0 {
		opts.Turns, opts.First, opts.FirstSeat = Alternating, FirstRandom, 1+int(flags>>5&1)
	}
	r, err := New(code, opts)
	if err != nil {
		t.Fatal(err)
	}
	c := newChecker(t, r)
	var bot Bot
	for i := 3; i+1 < len(data) && i < 3+2*maxFuzzActions; i += 2 {
		x, y := data[i], data[i+1]
		seat := 1 + int(x&1)
		var a k.Action
		switch (x >> 1) % 16 {
		case 1:
			a = k.NewMove(fuzzPiles[int(y)%len(fuzzPiles)], fuzzPiles[int(y>>3)%len(fuzzPiles)], 1)
		case 2:
			a = k.NewMove(k.Pile(y%7), k.Pile(y/7%9), 1+int(x>>5))
		case 3:
			a = k.FromPile(k.Tap, fuzzPiles[int(y)%len(fuzzPiles)], 1)
		case 4:
			a = k.FromPile(k.DTap, fuzzPiles[int(y)%len(fuzzPiles)], 1+int(y>>4)%13)
		case 5:
			a = k.Simple(k.Draw)
		case 6:
			a = k.Simple(k.Recycle)
		case 7:
			a = k.Simple(k.Pass)
		case 8:
			a = k.Simple(k.Undo)
		case 9:
			a = k.Action{Type: k.Type(y), From: k.Pile(y), To: k.Pile(y), Count: y}
		case 10:
			if y != 0 {
				continue
			}
			a = k.Simple(k.Resign + k.Type(x>>6)%3) // resign, claim, forfeit
		default:
			var ok bool
			if a, ok = bot.Next(r.Seen(seat)); !ok {
				continue
			}
		}
		before := *r
		out, err := r.Apply(seat, a)
		if err != nil {
			var ke *k.Error
			if !errors.As(err, &ke) || ke.Code == "" {
				t.Fatalf("%s: error %v is not a *klondike.Error", a, err)
			}
			if *r != before {
				t.Fatalf("%s refused (%v) but the race changed", a, err)
			}
			continue
		}
		c.check(seat, a, out)
		if r.Status() == Over {
			c.checkResult()
			if _, err := r.Apply(seat, k.Simple(k.Draw)); err == nil {
				t.Fatal("an action after the end was accepted")
			}
			return
		}
	}
}
