package cards

// Texts hands out the text forms of piles of cards from one backing array,
// so that a view of a game costs one allocation for all its piles' texts.
type Texts struct{ buf []string }

// NewTexts returns a Texts with room for n cards (more grow the array).
func NewTexts(n int) Texts { return Texts{buf: make([]string, 0, n)} }

// Of returns the texts of cs, never nil, with its capacity capped so that
// appending to it cannot overwrite the next pile's.
func (t *Texts) Of(cs []Card) []string {
	start := len(t.buf)
	for _, c := range cs {
		t.buf = append(t.buf, c.String())
	}
	if t.buf == nil {
		t.buf = []string{}
	}
	return t.buf[start:len(t.buf):len(t.buf)]
}

// SameTexts reports whether texts, a pile's texts as Of made them (not
// nil), are those of cs.
func SameTexts(texts []string, cs []Card) bool {
	if texts == nil || len(texts) != len(cs) {
		return false
	}
	for i, c := range cs {
		if texts[i] != c.String() {
			return false
		}
	}
	return true
}
