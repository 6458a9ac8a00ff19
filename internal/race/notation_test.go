package race

import (
	"fmt"
	"strconv"
	"strings"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// ParsePosition builds a race in play from a position diagram, for tests and
// tools. The diagram has one item per line; blank lines and lines starting
// with '#' are skipped:
//
//	f1: AS1 2S2        foundation slot f1…f8, bottom first, each card with its seat
//	last: 2            the seat that made the last foundation play (default none)
//	turn: 1            whose turn it is (alternating races; default Options.FirstSeat)
//	recycled: 1 2      the seats that have turned their waste over (their stock is known)
//	seat 1             what follows belongs to seat 1 (or 2)
//	c1: 4S 9H | KD QC  a column: face-down cards, '|', face-up cards, bottom first
//	s: 9C 8D           the stock in draw order (9C is drawn next)
//	w: 2C 7H           the waste, bottom first (7H plays)
//
// A column without '|' is all face up; piles that are not named are empty.
// Board cards belong to the seat of their section. Every card of a seat
// appears at most once; a position need not hold all 52 (a seat whose board
// is empty is out). Draw, redeal and decks come from code.
func ParsePosition(code cards.Code, opts Options, diagram string) (*Race, error) {
	r := &Race{}
	if err := r.init(code, opts); err != nil {
		return nil, err
	}
	for s := range r.boards {
		r.boards[s] = k.Board{NCols: Columns, DrawCount: uint8(code.Draw), CanRecycle: !code.Single}
	}
	var seen [2 * CardsPerSeat]bool
	use := func(c cards.Card) error {
		if seen[c] {
			return fmt.Errorf("race: position: %s of seat %d appears twice", c, c.Deck()+1)
		}
		seen[c] = true
		return nil
	}
	seat := 0
	for n, line := range strings.Split(diagram, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("race: position line %d %q: %s", n+1, line, fmt.Sprintf(format, args...))
		}
		if rest, ok := strings.CutPrefix(line, "seat "); ok {
			s, err := strconv.Atoi(strings.TrimSpace(rest))
			if err != nil || s < 1 || s > 2 {
				return nil, bad("seats are 1 and 2")
			}
			seat = s
			continue
		}
		name, body, ok := strings.Cut(line, ":")
		if !ok {
			return nil, bad("want name: cards")
		}
		name, body = strings.TrimSpace(name), strings.TrimSpace(body)
		switch name {
		case "last", "turn":
			s, err := strconv.Atoi(body)
			if err != nil || s < 0 || s > 2 {
				return nil, bad("want 0, 1 or 2")
			}
			if name == "last" {
				r.last = int8(s)
			} else if r.opts.Turns == Alternating {
				r.turn = int8(s)
			}
			continue
		case "recycled":
			for _, f := range strings.Fields(body) {
				s, err := strconv.Atoi(f)
				if err != nil || s < 1 || s > 2 {
					return nil, bad("seats are 1 and 2")
				}
				r.recycled[s-1] = true
			}
			continue
		}
		p, ok := k.ParsePile(name)
		if !ok || p == k.AnyF || (p.IsColumn() && int(p) >= Columns) {
			return nil, bad("unknown pile %q", name)
		}
		if p.IsSlot() {
			i := int(p - k.F1)
			for _, f := range strings.Fields(body) {
				if len(f) != 3 || (f[2] != '1' && f[2] != '2') {
					return nil, bad("foundation cards carry their seat, such as 2D1")
				}
				c, err := cards.Parse(f[:2])
				if err != nil {
					return nil, bad("%v", err)
				}
				c += cards.Card(52 * int(f[2]-'1'))
				if !r.found.Accepts(i, c) {
					return nil, bad("%s does not go on %s", c, p)
				}
				if err := use(c); err != nil {
					return nil, err
				}
				r.found.Piles[i][r.found.N[i]] = c
				r.found.N[i]++
				r.counts[c.Deck()]++
			}
			continue
		}
		if seat == 0 {
			return nil, bad("board piles come after a 'seat N' line")
		}
		b := &r.boards[seat-1]
		down, up, split := strings.Cut(body, "|")
		if !split {
			down, up = "", body
		}
		var list []cards.Card
		for _, f := range append(strings.Fields(down), strings.Fields(up)...) {
			c, err := cards.Parse(f)
			if err != nil {
				return nil, bad("%v", err)
			}
			c += cards.Card(52 * (seat - 1))
			if err := use(c); err != nil {
				return nil, err
			}
			list = append(list, c)
		}
		nDown := len(strings.Fields(down))
		switch {
		case p.IsColumn():
			if len(list) > k.MaxColumnCards || (nDown > 0 && nDown == len(list)) {
				return nil, bad("a column holds at most %d cards and its top is face up", k.MaxColumnCards)
			}
			col := &b.Cols[p]
			col.N, col.Down = uint8(copy(col.Cards[:], list)), uint8(nDown)
		case p == k.Stock:
			if split {
				return nil, bad("the stock has no '|'")
			}
			b.NStock = uint8(len(list))
			for i, c := range list {
				b.Stock[len(list)-1-i] = c
			}
		case p == k.Waste:
			if split {
				return nil, bad("the waste has no '|'")
			}
			b.NWaste = uint8(copy(b.Waste[:], list))
		}
	}
	r.checkEnd()
	return r, nil
}

// Diagram writes the whole race state, hidden cards included, in the notation
// of ParsePosition: for tests and debugging, never for players.
func (r *Race) Diagram() string {
	var sb strings.Builder
	for i := 0; i < 8; i++ {
		if r.found.N[i] == 0 {
			continue
		}
		fmt.Fprintf(&sb, "%s:", k.Slot(i))
		for _, c := range r.found.Piles[i][:r.found.N[i]] {
			fmt.Fprintf(&sb, " %s%d", c, c.Deck()+1)
		}
		sb.WriteByte('\n')
	}
	if r.last != 0 {
		fmt.Fprintf(&sb, "last: %d\n", r.last)
	}
	if r.opts.Turns == Alternating {
		fmt.Fprintf(&sb, "turn: %d\n", r.turn)
	}
	if r.recycled != [Seats]bool{} {
		sb.WriteString("recycled:")
		for s, ok := range r.recycled {
			if ok {
				fmt.Fprintf(&sb, " %d", s+1)
			}
		}
		sb.WriteByte('\n')
	}
	for s := range r.boards {
		b := &r.boards[s]
		fmt.Fprintf(&sb, "seat %d\n", s+1)
		for i := 0; i < int(b.NCols); i++ {
			col := &b.Cols[i]
			if col.N == 0 {
				continue
			}
			fmt.Fprintf(&sb, "c%d:", i+1)
			for j, c := range col.Cards[:col.N] {
				if j == int(col.Down) && col.Down > 0 {
					sb.WriteString(" |")
				}
				sb.WriteString(" " + c.String())
			}
			sb.WriteByte('\n')
		}
		if b.NStock > 0 {
			sb.WriteString("s:")
			for i := int(b.NStock) - 1; i >= 0; i-- {
				sb.WriteString(" " + b.Stock[i].String())
			}
			sb.WriteByte('\n')
		}
		if b.NWaste > 0 {
			sb.WriteString("w:")
			for _, c := range b.Waste[:b.NWaste] {
				sb.WriteString(" " + c.String())
			}
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}
