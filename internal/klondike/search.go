package klondike

import (
	"sync"

	"dsol/internal/cards"
)

// SearchLimit bounds the blocked search: it visits at most this many distinct
// positions. A search that reaches the bound reports "not blocked".
const SearchLimit = 20000

const tableBits = 16 // visited set of 2^16 slots, at most ~30% full at SearchLimit

// Blocked reports whether, from this board, no sequence of the player's own
// non-foundation actions — column-to-column moves, waste-to-column moves,
// draws and recycles, with the foundations frozen — reaches a position where a
// card can go to a foundation or a face-down card is turned over (docs/rules.md
// §4). The search is exact over the reachable positions and visits at
// most SearchLimit of them; reaching the bound counts as not blocked.
// Positions whose columns differ only by which copy of a duplicate card sits
// where, or by the order of columns without face-down cards, are the same
// position (the talon is told apart by which of its cards were played), and
// moves that cannot change what is reachable are not tried (see expand).
// Positions are remembered by a 64-bit hash, kept up to date move by move.
// Before searching, a relaxed game (see hopeless) may prove the board blocked
// at once. Board and foundations are not changed.
func Blocked(b *Board, f *Foundations) bool {
	s := searchPool.Get().(*search)
	blocked := s.run(b, f)
	searchPool.Put(s)
	return blocked
}

var searchPool = sync.Pool{New: func() any { return new(search) }}

type smove struct {
	kind     Type
	from, to Pile
	count    uint8
}

type frame struct {
	lo, hi, cur int32
	step        Step
}

type search struct {
	b      Board
	keys   [1 << tableBits]uint64
	stamps [1 << tableBits]uint32
	gen    uint32
	moves  []smove
	frames []frame
	needed [2 * 52]bool // the card goes to a foundation (they are frozen)
	path   []Step       // with wantPath: the steps to the goal found, if any
	want   bool

	// The position's hash, kept up to date by do and undo (see hash).
	colH   [MaxColumns]uint64 // zobrist sum of each column's face-up cards
	colMix [MaxColumns]uint64 // each column's share of cols
	free   [MaxColumns]bool   // the column has no face-down card
	cols   uint64             // sum of colMix
	talon  uint64             // zobrist sum of the talon cards played
	tpos   [2 * 52]uint8      // each talon card's place in the talon

	// Columns by top card, rebuilt by expand: the first two columns whose top
	// has each cardKey, and the first two empty ones (index 0).
	byTop [28][2]int8
}

// prepare loads a board and its foundations for expand.
func (s *search) prepare(b *Board, f *Foundations) {
	s.b = *b
	for c := range s.needed {
		s.needed[c] = f.FirstSlot(cards.Card(c)) >= 0
	}
}

// prepareHash computes the hash state of the loaded board from scratch.
func (s *search) prepareHash() {
	b := &s.b
	s.cols = 0
	for i := 0; i < int(b.NCols); i++ {
		col := &b.Cols[i]
		s.free[i] = col.Down == 0
		h := uint64(0)
		for k := int(col.Down); k < int(col.N); k++ {
			h ^= zCard[k][col.Cards[k].Face()]
		}
		s.colH[i] = h
		s.colMix[i] = s.mixCol(i)
		s.cols += s.colMix[i]
	}
	// The talon in draw order is the waste, bottom first, then the stock
	// from its top: draws and recycles leave that sequence alone and only
	// move the boundary (NWaste); a waste play takes out the card just
	// before it.
	for i := 0; i < int(b.NWaste); i++ {
		s.tpos[b.Waste[i]] = uint8(i)
	}
	for i := 0; i < int(b.NStock); i++ {
		s.tpos[b.Stock[i]] = uint8(int(b.NWaste) + int(b.NStock) - 1 - i)
	}
	s.talon = 0
}

// mixCol is column i's share of the hash: the same for equal contents of
// columns without face-down cards, whatever their place.
func (s *search) mixCol(i int) uint64 {
	if s.free[i] {
		return mix(s.colH[i])
	}
	return mix(s.colH[i] ^ zColumn[i])
}

// hash identifies the position: the columns, up to duplicate copies and the
// order of columns that have no face-down card (their shares are summed), and
// the talon by the cards played from it and the waste's length.
func (s *search) hash() uint64 {
	return mix(s.cols ^ s.talon ^ zWaste[s.b.NWaste])
}

// recol refreshes column i's share of the hash after its colH changed.
func (s *search) recol(i int) {
	m := s.mixCol(i)
	s.cols += m - s.colMix[i]
	s.colMix[i] = m
}

// shift moves count cards from the top of column i onto column j, keeping
// the hash up to date. It never turns a card over (the search stops before).
func (s *search) shift(i, j, count int) {
	from, to := &s.b.Cols[i], &s.b.Cols[j]
	hi, hj := s.colH[i], s.colH[j]
	base := int(from.N) - count
	n := int(to.N)
	for k := 0; k < count; k++ {
		c := from.Cards[base+k]
		to.Cards[n+k] = c
		hi ^= zCard[base+k][c.Face()]
		hj ^= zCard[n+k][c.Face()]
	}
	from.N = uint8(base)
	to.N = uint8(n + count)
	s.colH[i], s.colH[j] = hi, hj
	s.recol(i)
	s.recol(j)
}

func (s *search) run(b *Board, f *Foundations) bool {
	s.path = s.path[:0]
	if hopeless(b, f) {
		return true
	}
	s.prepare(b, f)
	s.gen++
	if s.gen == 0 { // stamps wrapped: forget everything
		s.stamps = [1 << tableBits]uint32{}
		s.gen = 1
	}
	s.moves, s.frames = s.moves[:0], s.frames[:0]
	if s.expand() {
		s.goalStep(0)
		return false
	}
	s.prepareHash()
	s.insert(s.hash())
	s.frames = append(s.frames, frame{lo: 0, hi: int32(len(s.moves)), cur: 0})
	visited := 1
	for len(s.frames) > 0 {
		fr := &s.frames[len(s.frames)-1]
		if fr.cur == fr.hi {
			if len(s.frames) > 1 {
				s.undo(fr.step)
			}
			s.moves = s.moves[:fr.lo]
			s.frames = s.frames[:len(s.frames)-1]
			continue
		}
		m := s.moves[fr.cur]
		fr.cur++
		st := s.do(m)
		if !s.insert(s.hash()) {
			s.undo(st)
			continue
		}
		visited++
		if visited > SearchLimit {
			return false
		}
		lo := int32(len(s.moves))
		if s.expand() {
			if s.want {
				for _, f := range s.frames[1:] {
					s.path = append(s.path, f.step)
				}
				s.path = append(s.path, st)
				s.goalStep(lo)
			}
			return false
		}
		s.frames = append(s.frames, frame{lo: lo, hi: int32(len(s.moves)), cur: lo, step: st})
	}
	return true
}

// goalStep appends to the path the goalMove that expand appended after lo,
// if any.
func (s *search) goalStep(lo int32) {
	if !s.want || len(s.moves) == int(lo) {
		return
	}
	m := s.moves[len(s.moves)-1]
	if m.kind != goalMove {
		return
	}
	col := &s.b.Cols[m.from]
	s.path = append(s.path, Step{Type: Move, From: m.from, To: m.to, Count: m.count, Card: col.Cards[int(col.N)-int(m.count)]})
}

// do applies a move of expand and returns its step.
func (s *search) do(m smove) Step {
	b := &s.b
	switch m.kind {
	case Draw:
		return Step{Type: Draw, Count: uint8(b.DrawCards())}
	case Recycle:
		b.RecycleWaste()
		return Step{Type: Recycle}
	}
	j := int(m.to)
	if m.from == Waste {
		b.NWaste--
		c := b.Waste[b.NWaste]
		s.talon ^= zTalon[s.tpos[c]]
		to := &b.Cols[j]
		to.Cards[to.N] = c
		to.N++
		s.colH[j] ^= zCard[to.N-1][c.Face()]
		s.recol(j)
		return Step{Type: Move, From: Waste, To: m.to, Count: 1, Card: c}
	}
	i := int(m.from)
	col := &b.Cols[i]
	st := Step{Type: Move, From: m.from, To: m.to, Count: m.count, Card: col.Cards[int(col.N)-int(m.count)]}
	s.shift(i, j, int(m.count))
	return st
}

// undo reverses do.
func (s *search) undo(st Step) {
	b := &s.b
	switch st.Type {
	case Draw:
		b.UndrawCards(int(st.Count))
		return
	case Recycle:
		b.UnrecycleWaste()
		return
	}
	j := int(st.To)
	if st.From == Waste {
		to := &b.Cols[j]
		to.N--
		c := to.Cards[to.N]
		s.colH[j] ^= zCard[to.N][c.Face()]
		s.recol(j)
		s.talon ^= zTalon[s.tpos[c]]
		b.Waste[b.NWaste] = c
		b.NWaste++
		return
	}
	s.shift(j, int(st.From), int(st.Count))
}

// goalMove marks a move that expand found to reach a goal at once; it is
// appended for Path only and never applied.
const goalMove Type = 0xFF

// expand appends the moves of the current position and reports whether the
// position itself is a goal (a foundation play or a flip is possible) or one
// move from one (a run can leave a card that goes to a foundation: with
// want, that move is appended last as a goalMove).
//
// Only moves that can matter are generated. Moving a run off a face-up card X
// onto a column top Y changes nothing that matters unless X can then go to a
// foundation: X and Y are then both tops of the same rank and colour, so they
// accept the same cards, and each can leave with its run on the same terms;
// only X's suit is new, and suits count only at the foundations, which are
// frozen. So a part of a run moves only to uncover a foundation card (and that
// is a goal one move away), and for the same reason a card or a run that may
// go on several equivalent tops (or several empty columns) is tried on the
// first one only.
func (s *search) expand() bool {
	b := &s.b
	n := int(b.NCols)
	for k := range s.byTop {
		s.byTop[k] = [2]int8{-1, -1}
	}
	for j := 0; j < n; j++ {
		col := &b.Cols[j]
		key := 0 // empty
		if col.N > 0 {
			t := col.Cards[col.N-1]
			if s.needed[t] {
				return true
			}
			if col.N == col.Down {
				continue // no face-up top (not a real position): accepts nothing
			}
			key = int(cardKey[t])
		}
		e := &s.byTop[key]
		if e[0] < 0 {
			e[0] = int8(j)
		} else if e[1] < 0 {
			e[1] = int8(j)
		}
	}
	if w := b.WasteTop(); w != cards.None {
		if s.needed[w] {
			return true
		}
		if j := s.target(w, -1); j >= 0 {
			s.moves = append(s.moves, smove{kind: Move, from: Waste, to: Pile(j), count: 1})
		}
	}
	for i := 0; i < n; i++ {
		col := &b.Cols[i]
		if col.N == 0 {
			continue
		}
		c := col.Cards[col.Down]
		if j := s.target(c, i); j >= 0 {
			if col.Down > 0 {
				return true // the move turns a card over
			}
			if b.Cols[j].N > 0 { // (a whole column to an empty one: the same position)
				s.moves = append(s.moves, smove{kind: Move, from: Pile(i), to: Pile(j), count: col.N})
			}
		}
		for k := int(col.Down) + 1; k < int(col.N); k++ {
			if !s.needed[col.Cards[k-1]] {
				continue
			}
			if j := s.target(col.Cards[k], i); j >= 0 {
				if s.want {
					s.moves = append(s.moves, smove{kind: goalMove, from: Pile(i), to: Pile(j), count: uint8(int(col.N) - k)})
				}
				return true
			}
		}
	}
	if b.NStock > 0 {
		s.moves = append(s.moves, smove{kind: Draw})
	} else if b.NWaste > 0 && b.CanRecycle {
		s.moves = append(s.moves, smove{kind: Recycle})
	}
	return false
}

// target returns the first column other than from that accepts a run
// starting with c, or -1 (byTop must be current).
func (s *search) target(c cards.Card, from int) int {
	key := parentKey[c]
	if key >= 28 { // a king: empty columns
		key = 0
	}
	e := s.byTop[key]
	if int(e[0]) == from {
		return int(e[1])
	}
	return int(e[0])
}

// cardKey is 2·rank + red of each card, parentKey the key of the cards it
// builds on: lookups instead of Column.Accepts' divisions in the search.
var cardKey, parentKey = func() (k, p [2 * 52]uint8) {
	for c := range k {
		r := 0
		if cards.Card(c).Red() {
			r = 1
		}
		rank := cards.Card(c).Rank()
		k[c], p[c] = uint8(2*rank+r), uint8(2*(rank+1)+1-r)
	}
	return k, p
}()

// Zobrist keys: a face at a place in a column, a column with face-down cards,
// a talon card played by its place in the talon, the waste's length.
var (
	zCard   [MaxColumnCards][52]uint64
	zColumn [MaxColumns]uint64
	zTalon  [MaxStock]uint64
	zWaste  [MaxStock + 1]uint64
)

func init() {
	r := cards.NewSplitMix64(0x5eed_d501)
	for k := range zCard {
		for f := range zCard[k] {
			zCard[k][f] = r.Next()
		}
	}
	for i := range zColumn {
		zColumn[i] = r.Next()
	}
	for i := range zTalon {
		zTalon[i] = r.Next()
	}
	for i := range zWaste {
		zWaste[i] = r.Next()
	}
}

func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// insert adds h to the visited set and reports whether it was new.
func (s *search) insert(h uint64) bool {
	const mask = 1<<tableBits - 1
	for i := h & mask; ; i = (i + 1) & mask {
		if s.stamps[i] != s.gen {
			s.stamps[i], s.keys[i] = s.gen, h
			return true
		}
		if s.keys[i] == h {
			return false
		}
	}
}
