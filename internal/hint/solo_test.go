package hint

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// TestEffectiveFirst: the action a winning line is taken to begin with
// passes over the foundation plays that the line takes back later (the
// tally solver puts a card up at once whenever it could come straight
// back, even when its line needs the card as a host), and a card that goes
// up and comes back to another column is a move between the columns.
func TestEffectiveFirst(t *testing.T) {
	nine := cards.New(0, cards.Spades, 9)
	b := k.Board{NCols: 9, DrawCount: 1, CanRecycle: true}
	b.Cols[0].Cards[0], b.Cols[0].Cards[1], b.Cols[0].N = cards.New(0, cards.Hearts, 10), nine, 2
	b.Cols[2].Cards[0], b.Cols[2].N = cards.New(0, cards.Diamonds, 10), 1
	b.Stock[0], b.NStock = cards.New(0, cards.Hearts, 1), 1
	var f k.Foundations
	for rank := 1; rank <= 8; rank++ {
		f.Piles[0][rank-1] = cards.New(0, cards.Spades, rank)
	}
	f.N[0] = 8
	up := k.NewMove(k.ColPile(0), k.Slot(0), 1)
	draw := k.Simple(k.Draw)
	for _, tc := range []struct {
		name   string
		line   []k.Action
		want   k.Action
		bounce []cards.Card
	}{
		{"up and back", []k.Action{up, k.NewMove(k.Slot(0), k.ColPile(0), 1), draw}, draw, []cards.Card{nine}},
		{"up for good", []k.Action{up, draw}, up, nil},
		{"by way of the foundation", []k.Action{up, k.NewMove(k.Slot(0), k.ColPile(2), 1), draw}, k.NewMove(k.ColPile(0), k.ColPile(2), 1), []cards.Card{nine}},
		{"a draw first", []k.Action{draw, up}, draw, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPosition(b.Seen(true), &f)
			got, bounce := p.effectiveFirst(&p.board, tc.line)
			if got != tc.want || !slices.Equal(bounce, tc.bounce) {
				t.Fatalf("effectiveFirst(%v) = %s, %v; want %s, %v", tc.line, got, bounce, tc.want, tc.bounce)
			}
		})
	}
}

// TestCandidatesLeaveRegroupsOut: a run moved off a card that may go up
// onto a twin of that card changes nothing the tally solver sees, so the
// solver wins as easily after it as before and it would tie with the best
// candidate, and be undone by the next hint. It is no candidate when the
// race bot's useful moves offer it, and is one when winning lines begin
// with it. The spades are up to their nines on both slots; one ten of
// spades holds a nine of hearts and an eight of clubs, the other is bare.
func TestCandidatesLeaveRegroupsOut(t *testing.T) {
	b := k.Board{NCols: 9, DrawCount: 3, CanRecycle: true}
	c0 := &b.Cols[0]
	c0.Cards[0], c0.Cards[1], c0.Cards[2], c0.N = cards.New(0, cards.Spades, 10), cards.New(0, cards.Hearts, 9), cards.New(0, cards.Clubs, 8), 3
	b.Cols[1].Cards[0], b.Cols[1].N = cards.New(1, cards.Spades, 10), 1
	var f k.Foundations
	for slot := range 2 {
		for rank := 1; rank <= 9; rank++ {
			f.Piles[slot][rank-1] = cards.New(slot, cards.Spades, rank)
		}
		f.N[slot] = 9
	}
	regroup := k.NewMove(k.ColPile(0), k.ColPile(1), 2)
	if !slices.Contains(slices.Collect(k.UsefulMoves(&b, &f)), regroup) {
		t.Fatalf("the race bot's useful moves %v lack %s; the test needs it", slices.Collect(k.UsefulMoves(&b, &f)), regroup)
	}
	p := newPosition(b.Seen(true), &f)
	if !p.regroups(regroup) || p.regroups(k.NewMove(k.ColPile(1), k.Slot(0), 1)) {
		t.Fatal("regroups: want a run off a face-up card to another column, and not a foundation play")
	}
	if got := p.candidates(nil); slices.Contains(got, regroup) {
		t.Fatalf("candidates %v hold %s", got, regroup)
	}
	if got := p.candidates([]k.Action{regroup}); !slices.Contains(got, regroup) {
		t.Fatalf("candidates %v lack %s, with which a winning line begins", got, regroup)
	}
}

// TestSampledHintIgnoresHiddenCards: in every mode, an end game whose
// hidden cards the solver wins in its arrangements gets a sampled hint
// (not the fallback), and the same one however its hidden cards lie: every
// suit is up to its nines on both slots, and the tens to kings are in
// seven columns (three face down under a face-up card) and the stock.
func TestSampledHintIgnoresHiddenCards(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			for i := range 4 {
				b, f := endGame(r, m.draw, !m.vegas)
				s := b.Seen(false)
				b2, f2 := hideOtherwise(r, b, f, false)
				seed := Seed(m.name, int64(i))
				h1, h2 := For(s, &f, seed, Default), For(b2.Seen(false), &f2, seed, Default)
				if h1 != h2 {
					t.Fatalf("end game %d: the hint depends on hidden cards: %+v, then %+v", i, h1, h2)
				}
				if !h1.OK || h1.Wins == 0 {
					t.Fatalf("end game %d: hint %+v; want one from the samples", i, h1)
				}
			}
		})
	}
}

// endGame is a random end game of a mode: every slot up to its nine, the
// 32 cards from ten to king shuffled into seven columns of three face-down
// cards under a face-up one, and the stock (the last four).
func endGame(r *rand.Rand, draw int, recycle bool) (k.Board, k.Foundations) {
	var f k.Foundations
	var rest []cards.Card
	for slot := range 8 {
		deck, s := slot%2, cards.Suit(slot/2)
		for rank := 1; rank <= 9; rank++ {
			f.Piles[slot][rank-1] = cards.New(deck, s, rank)
		}
		f.N[slot] = 9
		for rank := 10; rank <= 13; rank++ {
			rest = append(rest, cards.New(deck, s, rank))
		}
	}
	r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	b := k.Board{NCols: 9, DrawCount: uint8(draw), CanRecycle: recycle}
	for i := range 7 {
		col := &b.Cols[i]
		copy(col.Cards[:4], rest[4*i:])
		col.N, col.Down = 4, 3
	}
	for _, c := range rest[28:] {
		b.Stock[b.NStock] = c
		b.NStock++
	}
	return b, f
}

// TestVegasHintTriesABeam: in Vegas positions whose arrangements the
// depth-first search wins none of (a budget of one position), the second
// try solves arrangements with a beam and hints the first move its winning
// lines share; that hint is legal and, like every hint, the same however
// the hidden cards lie. In Normal there is no second try.
func TestVegasHintTriesABeam(t *testing.T) {
	opt := Options{Samples: 2, Positions: 1, Beam: 50, BeamSamples: 4, BeamPositions: 50_000}
	r := rand.New(rand.NewPCG(5, 6))
	beamed := 0
	for i := range 32 {
		m := modes[i%len(modes)]
		g, played := midGame(t, r, m.draw, m.vegas, r.IntN(12))
		s := g.Seen()
		b, f := *g.Board(), *g.Foundations()
		seed := Seed("game", int64(i))
		h := For(s, &f, seed, opt)
		fromBeam := strings.HasPrefix(h.Reason, "a beam wins")
		if fromBeam != (m.vegas && h.Wins > 0) {
			t.Fatalf("position %d (%s after %v): hint %+v", i, g.Code(), played, h)
		}
		if !fromBeam {
			continue
		}
		beamed++
		if h.Samples != opt.BeamSamples || h.Wins < 1 || h.Wins > h.Samples {
			t.Fatalf("position %d: %+v: want wins of %d beam samples", i, h, opt.BeamSamples)
		}
		cp := *g
		if _, err := cp.Apply(h.Action); err != nil {
			t.Fatalf("position %d (%s after %v): the beam's hint %s is refused: %v", i, g.Code(), played, h.Action, err)
		}
		b2, f2 := hideOtherwise(r, b, f, s.StockKnown)
		if h2 := For(b2.Seen(s.StockKnown), &f2, seed, opt); h2 != h {
			t.Fatalf("position %d (%s): the beam's hint depends on hidden cards: %+v, then %+v", i, g.Code(), h, h2)
		}
	}
	if beamed < 3 {
		t.Fatalf("%d of 16 Vegas positions hinted by the beam, want 3 at least", beamed)
	}
	t.Logf("%d of 16 Vegas positions hinted by the beam", beamed)
}
