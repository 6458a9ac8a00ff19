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
// card can go to a foundation or a face-down card is turned over (RULES.md
// section 3). The search is exact over the reachable positions and visits at
// most SearchLimit of them; reaching the bound counts as not blocked.
// Positions that differ only by which copy of a duplicate card sits where, or
// by the order of columns without face-down cards, are the same position, and
// moves that cannot change what is reachable are not tried (see expand).
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
	f      *Foundations
	keys   [1 << tableBits]uint64
	stamps [1 << tableBits]uint32
	gen    uint32
	moves  []smove
	frames []frame
	needed [2 * 52]bool // the card goes to a foundation (they are frozen)
	path   []Step       // with wantPath: the steps to the goal found, if any
	want   bool
}

// prepare loads a board and its foundations for expand.
func (s *search) prepare(b *Board, f *Foundations) {
	s.b, s.f = *b, f
	for c := range s.needed {
		s.needed[c] = f.FirstSlot(cards.Card(c)) >= 0
	}
}

func (s *search) run(b *Board, f *Foundations) bool {
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
	s.insert(s.hash())
	s.path = s.path[:0]
	if s.expand() {
		return false
	}
	s.frames = append(s.frames, frame{lo: 0, hi: int32(len(s.moves)), cur: 0})
	t := Table{B: &s.b, F: f}
	visited := 1
	for len(s.frames) > 0 {
		fr := &s.frames[len(s.frames)-1]
		if fr.cur == fr.hi {
			if len(s.frames) > 1 {
				t.Undo(fr.step)
			}
			s.moves = s.moves[:fr.lo]
			s.frames = s.frames[:len(s.frames)-1]
			continue
		}
		m := s.moves[fr.cur]
		fr.cur++
		st := s.apply(m)
		if !s.insert(s.hash()) {
			t.Undo(st)
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
			}
			return false
		}
		s.frames = append(s.frames, frame{lo: lo, hi: int32(len(s.moves)), cur: lo, step: st})
	}
	return true
}

func (s *search) apply(m smove) Step {
	switch m.kind {
	case Draw:
		return Step{Type: Draw, Count: uint8(s.b.DrawCards())}
	case Recycle:
		s.b.RecycleWaste()
		return Step{Type: Recycle}
	}
	return Table{B: &s.b, F: s.f}.DoMove(m.from, m.to, int(m.count))
}

// expand appends the moves of the current position and reports whether the
// position itself is a goal (a foundation play or a flip is possible).
//
// Only moves that can matter are generated. Moving a run off a face-up card X
// onto a column top Y changes nothing that matters unless X can then go to a
// foundation: X and Y are then both tops of the same rank and colour, so they
// accept the same cards, and each can leave with its run on the same terms;
// only X's suit is new, and suits count only at the foundations, which are
// frozen. So a part of a run moves only to uncover a foundation card, and for
// the same reason a card or a run that may go on several equivalent tops (or
// several empty columns) is tried on the first one only.
func (s *search) expand() bool {
	b := &s.b
	n := int(b.NCols)
	if w := b.WasteTop(); w != cards.None {
		if s.needed[w] {
			return true
		}
		for j := 0; j < n; j++ {
			if accepts(&b.Cols[j], w) {
				s.moves = append(s.moves, smove{kind: Move, from: Waste, to: Pile(j), count: 1})
				break
			}
		}
	}
	for i := 0; i < n; i++ {
		col := &b.Cols[i]
		if col.N == 0 {
			continue
		}
		if s.needed[col.Cards[col.N-1]] {
			return true
		}
		c := col.Cards[col.Down]
		for j := 0; j < n; j++ {
			if j == i || !accepts(&b.Cols[j], c) {
				continue
			}
			if col.Down > 0 {
				return true // the move turns a card over
			}
			if b.Cols[j].N == 0 {
				continue // a whole column to an empty one: the same position
			}
			s.moves = append(s.moves, smove{kind: Move, from: Pile(i), to: Pile(j), count: col.N})
			break
		}
		for k := int(col.Down) + 1; k < int(col.N); k++ {
			if !s.needed[col.Cards[k-1]] {
				continue
			}
			c := col.Cards[k]
			for j := 0; j < n; j++ {
				if j != i && accepts(&b.Cols[j], c) {
					s.moves = append(s.moves, smove{kind: Move, from: Pile(i), to: Pile(j), count: uint8(int(col.N) - k)})
					break
				}
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

// accepts is Column.Accepts by table lookup.
func accepts(col *Column, c cards.Card) bool {
	if col.N == 0 {
		return cardKey[c]>>1 == 13
	}
	return col.N > col.Down && cardKey[col.Cards[col.N-1]] == parentKey[c]
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// hash identifies the position up to duplicate copies and the order of
// columns that have no face-down card.
func (s *search) hash() uint64 {
	b := &s.b
	var free uint64 // commutative sum over columns without face-down cards
	h := uint64(fnvOffset)
	for i := 0; i < int(b.NCols); i++ {
		col := &b.Cols[i]
		ch := uint64(fnvOffset)
		for k := int(col.Down); k < int(col.N); k++ {
			ch = (ch ^ uint64(col.Cards[k].Face()+1)) * fnvPrime
		}
		if col.Down == 0 {
			free += mix(ch)
		} else {
			h = (h ^ uint64(i+1)) * fnvPrime
			h = (h ^ ch) * fnvPrime
		}
	}
	h = (h ^ free) * fnvPrime
	for i := 0; i < int(b.NStock); i++ {
		h = (h ^ uint64(b.Stock[i].Face()+1)) * fnvPrime
	}
	h = (h ^ 0xFF) * fnvPrime
	for i := 0; i < int(b.NWaste); i++ {
		h = (h ^ uint64(b.Waste[i].Face()+1)) * fnvPrime
	}
	return mix(h)
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
