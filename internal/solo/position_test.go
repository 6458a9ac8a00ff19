package solo

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// The position notation lets a test read like a diagram:
//
//	c1: ## ## 8S 7H      ## is a face-down card; #7C gives it a face
//	c2: KD
//	w: 2C 5H             waste, bottom first
//	s: 9C TD             stock, next card first
//	f1: AS 2S            a foundation slot, bottom first; AS..KS is a range
//	draw: 3  scoring: vegas  score: 30
//
// Lines may come in any order; blank lines and text after "//" are ignored.
// Each face exists twice: the first mention is deck copy 0, the second copy 1.
// Anonymous face-down cards (##) get faces no other part of the position uses.
// Cards the position does not name are left out of the game. The position
// must be one a real game can reach locally: no column with face-down cards
// and no face-up card, face-up parts that are alternating runs, foundation
// slots in suit and order.

const faces = 52

// parsePosition builds a game from the notation.
func parsePosition(text string) (*Game, error) {
	g := &Game{code: cards.Code{Kind: cards.Solo, Draw: 1}}
	var used [faces]int // copies of each face placed so far
	take := func(f cards.Card) (cards.Card, error) {
		if used[f] >= 2 {
			return cards.None, fmt.Errorf("%s appears more than twice", f)
		}
		used[f]++
		return f + cards.Card(52*(used[f]-1)), nil
	}
	type pending struct{ col, idx int }
	var anon []pending
	var cols [Columns][]cards.Card
	var down [Columns]int
	var waste, stock []cards.Card
	scoreSet := false
	for ln, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		errf := func(format string, args ...any) error {
			return fmt.Errorf("position line %d %q: %s", ln+1, line, fmt.Sprintf(format, args...))
		}
		if strings.HasPrefix(line, "draw:") || strings.HasPrefix(line, "scoring:") || strings.HasPrefix(line, "score:") {
			f := strings.Fields(line)
			for i := 0; i+1 < len(f); i += 2 {
				switch f[i] {
				case "draw:":
					switch f[i+1] {
					case "1", "3":
						g.code.Draw = int(f[i+1][0] - '0')
					default:
						return nil, errf("draw is 1 or 3")
					}
				case "scoring:":
					switch f[i+1] {
					case "normal":
						g.code.Vegas = false
					case "vegas":
						g.code.Vegas = true
					default:
						return nil, errf("scoring is normal or vegas")
					}
				case "score:":
					n, err := strconv.Atoi(f[i+1])
					if err != nil {
						return nil, errf("bad score")
					}
					g.score, scoreSet = int32(n), true
				default:
					return nil, errf("unknown setting %s", f[i])
				}
			}
			if len(f)%2 != 0 {
				return nil, errf("settings come in pairs")
			}
			continue
		}
		name, rest, ok := strings.Cut(line, ":")
		if !ok {
			return nil, errf("want pile: cards")
		}
		pile, ok := k.ParsePile(strings.TrimSpace(name))
		if !ok || pile == k.AnyF {
			return nil, errf("unknown pile %q", name)
		}
		var faces []cards.Card
		var hidden []bool
		for _, tok := range strings.Fields(rest) {
			if a, b, ok := strings.Cut(tok, ".."); ok { // a range within one suit
				fa, err1 := cards.Parse(a)
				fb, err2 := cards.Parse(b)
				if err1 != nil || err2 != nil || fa.Suit() != fb.Suit() {
					return nil, errf("bad range %q", tok)
				}
				step := 1
				if fb < fa {
					step = -1
				}
				for f := int(fa); ; f += step {
					faces, hidden = append(faces, cards.Card(f)), append(hidden, false)
					if f == int(fb) {
						break
					}
				}
				continue
			}
			h := strings.HasPrefix(tok, "#")
			if h {
				tok = tok[1:]
			}
			if tok == "#" {
				faces, hidden = append(faces, cards.None), append(hidden, true)
				continue
			}
			f, err := cards.Parse(tok)
			if err != nil {
				return nil, errf("%v", err)
			}
			faces, hidden = append(faces, f), append(hidden, h)
		}
		var cs []cards.Card
		for i, f := range faces {
			if hidden[i] && !pile.IsColumn() {
				return nil, errf("only columns have face-down cards")
			}
			if hidden[i] && i > 0 && !hidden[i-1] {
				return nil, errf("face-down cards go below the face-up ones")
			}
			if f == cards.None {
				anon = append(anon, pending{int(pile), i})
				cs = append(cs, cards.None)
				continue
			}
			c, err := take(f)
			if err != nil {
				return nil, errf("%v", err)
			}
			cs = append(cs, c)
		}
		switch {
		case pile.IsColumn():
			if cols[pile] != nil {
				return nil, errf("%s given twice", pile)
			}
			cols[pile] = append([]cards.Card{}, cs...)
			for _, h := range hidden {
				if h {
					down[pile]++
				}
			}
			if down[pile] > 0 && down[pile] == len(cs) {
				return nil, errf("a column with face-down cards shows a face-up top")
			}
			up := cs[down[pile]:]
			for i := 1; i < len(up); i++ {
				if !cards.Builds(up[i], up[i-1]) {
					return nil, errf("%s does not build on %s", up[i], up[i-1])
				}
			}
			if down[pile] > 8 || len(cs) > k.MaxColumnCards {
				return nil, errf("column too long")
			}
		case pile == k.Waste:
			waste = cs
		case pile == k.Stock:
			stock = cs
		case pile.IsSlot():
			slot := int(pile - k.F1)
			for i, c := range cs {
				if int(c.Suit()) != slot/2 || c.Rank() != i+1 {
					return nil, errf("%s cannot be card %d of %s", c, i+1, pile)
				}
				g.found.Piles[slot][i] = c
			}
			g.found.N[slot] = uint8(len(cs))
		}
	}
	// Give the anonymous face-down cards faces the position does not use up,
	// from the clubs king down.
	for _, p := range anon {
		f := faces - 1
		for f >= 0 && used[f] >= 2 {
			f--
		}
		if f < 0 {
			return nil, fmt.Errorf("position: too many cards")
		}
		c, err := take(cards.Card(f))
		if err != nil {
			return nil, err
		}
		cols[p.col][p.idx] = c
	}
	b := &g.board
	b.NCols, b.DrawCount, b.CanRecycle = Columns, uint8(g.code.Draw), !g.code.Vegas
	for i := range cols {
		b.Cols[i].N = uint8(copy(b.Cols[i].Cards[:], cols[i]))
		b.Cols[i].Down = uint8(down[i])
	}
	if len(waste)+len(stock) > k.MaxStock {
		return nil, fmt.Errorf("position: stock and waste hold more than %d cards", k.MaxStock)
	}
	b.NWaste = uint8(copy(b.Waste[:], waste))
	b.NStock = uint8(len(stock))
	for i, c := range stock {
		b.Stock[len(stock)-1-i] = c
	}
	if !scoreSet && g.code.Vegas {
		g.score = VegasStart
	}
	if g.found.Total() == TotalCards {
		g.status = Won
	}
	return g, nil
}

// mustPosition builds a game from the notation or fails the test.
func mustPosition(tb testing.TB, text string) *Game {
	tb.Helper()
	g, err := parsePosition(text)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// formatPosition writes a game in the notation, face-down cards with faces,
// so that parsePosition(formatPosition(g)) places every face where g has it.
func formatPosition(g *Game) string {
	var sb strings.Builder
	writePiles(&sb, g, true)
	fmt.Fprintf(&sb, "draw: %d scoring: %s score: %d\n", g.code.Draw, Scoring(g.code), g.score)
	return sb.String()
}

// sameFaces reports whether two games hold the same faces in the same places
// (deck copies aside).
func sameFaces(a, b *Game) bool {
	return formatPosition(a) == formatPosition(b)
}

func TestPositionNotation(t *testing.T) {
	g := mustPosition(t, `
		c1: ## ## 8S 7H
		c2: KD
		c3: #7C 9D      // a face-down card with a face
		w: 2C 5H
		s: 9C TD
		f1: AS 2S
		f3: AH..3H
		draw: 3  scoring: vegas  score: 30
	`)
	b := g.Board()
	if g.Code().Draw != 3 || !g.Code().Vegas || g.Score() != 30 {
		t.Errorf("settings: code %v score %d", g.Code(), g.Score())
	}
	if c := b.Cols[0]; c.N != 4 || c.Down != 2 || c.Cards[3].String() != "7H" {
		t.Errorf("c1 = %v", c)
	}
	if c := b.Cols[2]; c.N != 2 || c.Down != 1 || c.Cards[0].String() != "7C" {
		t.Errorf("c3 = %v", c)
	}
	if b.WasteTop().String() != "5H" || b.Stock[b.NStock-1].String() != "9C" {
		t.Errorf("waste top %s, next stock card %s", b.WasteTop(), b.Stock[b.NStock-1])
	}
	if g.Foundations().N[0] != 2 || g.Foundations().N[2] != 3 {
		t.Errorf("foundations %v", g.Foundations().N)
	}
	seen := map[cards.Card]bool{}
	for _, c := range allCards(g) {
		if seen[c] {
			t.Errorf("card id %d placed twice", c)
		}
		seen[c] = true
	}
	if len(seen) != 16 {
		t.Errorf("%d cards placed, want 16", len(seen))
	}
	again := mustPosition(t, formatPosition(g))
	if !sameFaces(g, again) {
		t.Errorf("format/parse round trip:\n%s\n%s", formatPosition(g), formatPosition(again))
	}
	for _, bad := range []string{
		"c1: ## ##",             // no face-up card over face-down ones
		"c1: 8S 8H",             // not a run
		"c1: 7H ##",             // face-down above face-up
		"f1: 2S",                // foundation out of order
		"f3: AS",                // wrong row
		"c1: 7H\nc2: 7H\nw: 7H", // three copies
		"w: #7H",                // face-down waste
		"x: 7H",                 // unknown pile
		"draw: 2",
	} {
		if _, err := parsePosition(bad); err == nil {
			t.Errorf("parsePosition(%q) accepted", bad)
		}
	}
}

// allCards lists every card id on the table.
func allCards(g *Game) []cards.Card {
	b := &g.board
	var out []cards.Card
	for i := 0; i < int(b.NCols); i++ {
		out = append(out, b.Cols[i].Cards[:b.Cols[i].N]...)
	}
	out = append(out, b.Stock[:b.NStock]...)
	out = append(out, b.Waste[:b.NWaste]...)
	for i := range g.found.N {
		out = append(out, g.found.Piles[i][:g.found.N[i]]...)
	}
	return out
}
