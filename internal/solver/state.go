package solver

import (
	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// pair is a 128-bit value as two independent 64-bit halves.
type pair [2]uint64

// state is the searched position: real cards in real places, so that the
// moves the search makes are the engine's moves. The talon is kept in draw
// order: tal[:tw] is the waste (its top tal[tw-1]) and tal[tw:tn] the stock
// (tal[tw] is drawn next). A solver move plays the talon card at some
// reachable boundary q (the card tal[q-1]); the draws and recycles that bring
// it to the top are spelt out only when the line is written (see line).
type state struct {
	cols    [k.MaxColumns]k.Column
	ncols   int
	tal     [k.MaxStock]cards.Card
	tn, tw  int
	f       k.Foundations
	draw    int
	recycle bool
	left    int // cards not on the foundations

	keys   *keySet
	tidx   [2 * 52]uint8 // each talon card's place in the talon as dealt
	colH   [k.MaxColumns]pair
	colM   [k.MaxColumns]pair // each column's share of sum
	sum    pair               // the columns' shares, summed
	talH   pair               // the talon cards still there
	foundH pair               // exact keys only: the foundation piles
}

// keySet is the Zobrist keys of one way of telling positions apart.
// symmetric gives both copies of a card the same keys and every column the
// same key (columns then count as a multiset), and leaves the foundations
// out: they hold exactly the cards that are not elsewhere, and the two slots
// of a suit are interchangeable, so the rest of the position fixes them up to
// that symmetry. exact tells everything apart.
type keySet struct {
	card  [k.MaxColumnCards][2 * 52][2]pair // height, card, face up
	col   [k.MaxColumns]pair
	tal   [k.MaxStock]pair
	waste [k.MaxStock + 1]pair
	found [8][13][2 * 52]pair
	exact bool
}

var symmetric, exact keySet

func init() {
	r := cards.NewSplitMix64(0xd501_5017_e5)
	next := func() pair { return pair{r.Next(), r.Next()} }
	for h := range exact.card {
		for c := range exact.card[h] {
			for u := range exact.card[h][c] {
				exact.card[h][c][u] = next()
			}
		}
		for c := range symmetric.card[h] {
			symmetric.card[h][c] = exact.card[h][c%52]
		}
	}
	for i := range exact.col {
		exact.col[i] = next()
	}
	for i := range exact.tal {
		exact.tal[i] = next()
	}
	symmetric.tal = exact.tal
	for i := range exact.waste {
		exact.waste[i] = next()
	}
	symmetric.waste = exact.waste
	for s := range exact.found {
		for h := range exact.found[s] {
			for c := range exact.found[s][h] {
				exact.found[s][h][c] = next()
			}
		}
	}
	exact.exact = true
}

// load copies a board and its foundations and computes the hash state.
func (st *state) load(b *k.Board, f *k.Foundations, keys *keySet) {
	st.keys = keys
	st.ncols = int(b.NCols)
	st.cols = b.Cols
	st.f = *f
	st.draw = int(b.DrawCount)
	st.recycle = b.CanRecycle
	st.tn, st.tw = 0, int(b.NWaste)
	for _, c := range b.Waste[:b.NWaste] {
		st.tal[st.tn] = c
		st.tn++
	}
	for i := int(b.NStock) - 1; i >= 0; i-- {
		st.tal[st.tn] = b.Stock[i]
		st.tn++
	}
	st.talH = pair{}
	for i, c := range st.tal[:st.tn] {
		st.tidx[c] = uint8(i)
		st.talH = xor(st.talH, keys.tal[i])
	}
	st.left = st.tn
	st.sum = pair{}
	for i := 0; i < st.ncols; i++ {
		col := &st.cols[i]
		st.left += int(col.N)
		h := pair{}
		for p := 0; p < int(col.N); p++ {
			up := 0
			if p >= int(col.Down) {
				up = 1
			}
			h = xor(h, keys.card[p][col.Cards[p]][up])
		}
		st.colH[i] = h
		st.colM[i] = pair{}
		st.touch(i)
	}
	st.foundH = pair{}
	if keys.exact {
		for s := 0; s < 8; s++ {
			for h := 0; h < int(f.N[s]); h++ {
				st.foundH = xor(st.foundH, keys.found[s][h][f.Piles[s][h]])
			}
		}
	}
}

func xor(a, b pair) pair { return pair{a[0] ^ b[0], a[1] ^ b[1]} }

// touch refreshes column i's share of the hash after colH[i] changed.
func (st *state) touch(i int) {
	h := st.colH[i]
	if st.keys.exact {
		h = xor(h, st.keys.col[i])
	}
	m := pair{mix1(h[0]), mix2(h[1])}
	st.sum[0] += m[0] - st.colM[i][0]
	st.sum[1] += m[1] - st.colM[i][1]
	st.colM[i] = m
}

// hash returns the position's key.
func (st *state) hash() pair {
	w := st.keys.waste[st.boundaryClass()]
	return pair{
		mix1(st.sum[0] ^ st.talH[0] ^ st.foundH[0] ^ w[0]),
		mix2(st.sum[1] ^ st.talH[1] ^ st.foundH[1] ^ w[1]),
	}
}

// boundaryClass names the waste boundary for the hash. With recycles, the
// boundaries 0, d, 2d, … and tn (d the draw count) reach each other by draws
// and recycles, so they are one class (0); draw 1 makes every boundary one
// class. Other boundaries, and every boundary of a single pass, stand alone.
// Two positions that differ only within a class have the same moves (a talon
// move depends only on the boundary it plays at, and each member of the class
// reaches the same boundaries), so they are the same position.
func (st *state) boundaryClass() int {
	if st.keys.exact || !st.recycle {
		return st.tw
	}
	if st.tw%st.draw == 0 || st.tw == st.tn {
		return 0
	}
	return st.tw
}

// mix1 and mix2 are two different 64-bit finalisers (SplitMix64's and
// MurmurHash3's), one per half of the key.
func mix1(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

func mix2(z uint64) uint64 {
	z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCD
	z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53
	return z ^ (z >> 33)
}

// push puts c face up on column i.
func (st *state) push(i int, c cards.Card) {
	col := &st.cols[i]
	st.colH[i] = xor(st.colH[i], st.keys.card[col.N][c][1])
	col.Cards[col.N] = c
	col.N++
}

// pop takes the top card off column i; if that leaves a face-down top, it
// turns it over and reports flipped.
func (st *state) pop(i int) (c cards.Card, flipped bool) {
	col := &st.cols[i]
	col.N--
	c = col.Cards[col.N]
	st.colH[i] = xor(st.colH[i], st.keys.card[col.N][c][1])
	return c, st.flip(i)
}

// flip turns over the top of column i if it is face down.
func (st *state) flip(i int) bool {
	col := &st.cols[i]
	if col.N == 0 || col.Down != col.N {
		return false
	}
	col.Down--
	c := col.Cards[col.Down]
	st.colH[i] = xor(xor(st.colH[i], st.keys.card[col.Down][c][0]), st.keys.card[col.Down][c][1])
	return true
}

// unflip turns column i's top card face down again (undoing flip).
func (st *state) unflip(i int) {
	col := &st.cols[i]
	c := col.Cards[col.Down]
	st.colH[i] = xor(xor(st.colH[i], st.keys.card[col.Down][c][0]), st.keys.card[col.Down][c][1])
	col.Down++
}

// toFound puts c on foundation slot s.
func (st *state) toFound(s int, c cards.Card) {
	h := int(st.f.N[s])
	st.f.Piles[s][h] = c
	st.f.N[s]++
	st.left--
	if st.keys.exact {
		st.foundH = xor(st.foundH, st.keys.found[s][h][c])
	}
}

// fromFound takes the top card off foundation slot s.
func (st *state) fromFound(s int) cards.Card {
	st.f.N[s]--
	h := int(st.f.N[s])
	c := st.f.Piles[s][h]
	st.left++
	if st.keys.exact {
		st.foundH = xor(st.foundH, st.keys.found[s][h][c])
	}
	return c
}

// takeTalon removes the talon card at boundary q (tal[q-1]); the waste
// boundary becomes q-1.
func (st *state) takeTalon(q int) cards.Card {
	c := st.tal[q-1]
	copy(st.tal[q-1:st.tn-1], st.tal[q:st.tn])
	st.tn--
	st.tw = q - 1
	st.talH = xor(st.talH, st.keys.tal[st.tidx[c]])
	return c
}

// putTalon undoes takeTalon, restoring the boundary tw.
func (st *state) putTalon(q int, c cards.Card, tw int) {
	copy(st.tal[q:st.tn+1], st.tal[q-1:st.tn])
	st.tal[q-1] = c
	st.tn++
	st.tw = tw
	st.talH = xor(st.talH, st.keys.tal[st.tidx[c]])
}

// The kinds of solver move.
const (
	colToF   uint8 = iota // a column's top to foundation slot to
	talToF                // the talon card at boundary from to slot to
	colToCol              // count cards from column from to column to
	talToCol              // the talon card at boundary from to column to
	fToCol                // the top of slot from to column to (recovery)
)

// move is one solver move. For talon moves, from is the boundary q.
type move struct {
	kind, from, to, count uint8
}

// rec is an applied move with what undoing it needs.
type rec struct {
	m       move
	flipped bool
	tw      uint8      // the waste boundary before a talon move
	card    cards.Card // the (first) card moved
}

// do applies m and returns its record.
func (st *state) do(m move) rec {
	r := rec{m: m, tw: uint8(st.tw)}
	switch m.kind {
	case colToF:
		r.card, r.flipped = st.pop(int(m.from))
		st.touch(int(m.from))
		st.toFound(int(m.to), r.card)
	case talToF:
		r.card = st.takeTalon(int(m.from))
		st.toFound(int(m.to), r.card)
	case talToCol:
		r.card = st.takeTalon(int(m.from))
		st.push(int(m.to), r.card)
		st.touch(int(m.to))
	case fToCol:
		r.card = st.fromFound(int(m.from))
		st.push(int(m.to), r.card)
		st.touch(int(m.to))
	case colToCol:
		i, j, n := int(m.from), int(m.to), int(m.count)
		from := &st.cols[i]
		base := int(from.N) - n
		r.card = from.Cards[base]
		for p := base; p < int(from.N); p++ {
			c := from.Cards[p]
			st.colH[i] = xor(st.colH[i], st.keys.card[p][c][1])
			st.push(j, c)
		}
		from.N = uint8(base)
		r.flipped = st.flip(i)
		st.touch(i)
		st.touch(j)
	}
	return r
}

// undo reverses do.
func (st *state) undo(r rec) {
	m := r.m
	switch m.kind {
	case colToF:
		st.fromFound(int(m.to))
		if r.flipped {
			st.unflip(int(m.from))
		}
		st.push(int(m.from), r.card)
		st.touch(int(m.from))
	case talToF:
		st.fromFound(int(m.to))
		st.putTalon(int(m.from), r.card, int(r.tw))
	case talToCol:
		st.pop(int(m.to))
		st.touch(int(m.to))
		st.putTalon(int(m.from), r.card, int(r.tw))
	case fToCol:
		st.pop(int(m.to))
		st.touch(int(m.to))
		st.toFound(int(m.from), r.card)
	case colToCol:
		i, j, n := int(m.from), int(m.to), int(m.count)
		if r.flipped {
			st.unflip(i)
		}
		to := &st.cols[j]
		base := int(to.N) - n
		for p := base; p < int(to.N); p++ {
			c := to.Cards[p]
			st.colH[j] = xor(st.colH[j], st.keys.card[p][c][1])
			st.push(i, c)
		}
		to.N = uint8(base)
		st.touch(i)
		st.touch(j)
	}
}
