package protocol

import (
	"strconv"

	"dsol/internal/game"
	"dsol/internal/race"
	"dsol/internal/solo"
)

// View is a viewer's view of a live game: SoloView or RaceView. It is what
// REST answers and socket frames carry, built on the live game's goroutine and
// read-only once built.
type View interface {
	// GameStatus is the view's status: "playing", "won", "stuck" for a solo
	// game; "waiting", "playing", "over" for a race.
	GameStatus() string
	// AppendDelta appends to b the changes from prev, the view of the same
	// game for the same viewer at the previous seq, as the JSON object of a
	// delta event (the protocol's "d"). Folding it into prev (see the
	// protocol document) gives this view, except the keys that travel in
	// their own messages: presence and clocks.
	AppendDelta(b []byte, prev View) []byte
	// For is the view of the same game at the same moment for another
	// viewer (a seat, or 0 for a spectator), as the engine's View would
	// build it: what all viewers see alike is shared, not built again.
	For(viewer int) View
}

// A delta is a JSON object whose keys name what changed:
//
//	w, s        the waste ([keep, card…]) and the stock count
//	fN          foundation N ([keep, item…])
//	cN, dN      column N's face-up cards ([keep, card…]) and face-down count
//	1x, 2x      in a race, the same keys inside seat 1 or 2, and 1n/2n its
//	            count, 1b/2b blocked, 1p/2p its player
//	any other   the view's top-level key of that name, set to the value
//
// A pile value [keep, item…] keeps the first keep items of the pile and
// appends the rest: piles only ever lose and gain cards at their top, so a
// move is the two ends it touched.

// GameStatus implements View.
func (v SoloView) GameStatus() string { return v.Status }

// GameStatus implements View.
func (v RaceView) GameStatus() string { return v.Status }

// AppendDelta implements View.
func (v SoloView) AppendDelta(b []byte, prev View) []byte {
	p, _ := prev.(SoloView)
	d := deltaWriter{b: append(b, '{')}
	d.str("status", v.Status, p.Status)
	d.num("score", v.Score, p.Score)
	d.num("moves", v.Moves, p.Moves)
	d.num("undo", v.Undo, p.Undo)
	d.boolean("stuck", v.Stuck, p.Stuck)
	d.num("hints", v.Hints, p.Hints)
	d.boolean("finish", v.Finish, p.Finish)
	if !sameBool(v.StillWinnable, p.StillWinnable) {
		d.raw("stillWinnable", StillJSON(v.StillWinnable))
	}
	d.num("s", v.Stock, p.Stock)
	d.pile("w", v.Waste, p.Waste)
	for i := range v.Foundations {
		d.pile(keys.f[i], v.Foundations[i], at(p.Foundations, i))
	}
	for i, c := range v.Columns {
		var pc solo.ColumnView
		if i < len(p.Columns) {
			pc = p.Columns[i]
		}
		d.pile(keys.c[i], c.Up, pc.Up)
		d.num(keys.d[i], c.Down, pc.Down)
	}
	return d.end()
}

// AppendDelta implements View. It reads nothing that differs between
// viewers (what does, "you" and "claimAt", when the viewer may claim against
// the opponent, never changes or is presence), so every viewer's delta of an
// event is the same and it is built once (Frame.Like).
func (v RaceView) AppendDelta(b []byte, prev View) []byte {
	p, _ := prev.(RaceView)
	d := deltaWriter{b: append(b, '{')}
	d.str("status", v.Status, p.Status)
	if !sameInt(v.Turn, p.Turn) {
		d.raw("turn", appendIntPtr(nil, v.Turn))
	}
	for i, f := range v.Foundations {
		var pf []race.FoundationCard
		if i < len(p.Foundations) {
			pf = p.Foundations[i]
		}
		d.foundation(keys.f[i], f, pf)
	}
	for i, s := range v.Seats {
		var ps RaceSeatView
		if i < len(p.Seats) {
			ps = p.Seats[i]
		}
		k := &keys.seats[i]
		if !samePlayer(s.Player, ps.Player) {
			d.value(k.p, s.Player)
		}
		d.num(k.s, s.Stock, ps.Stock)
		d.pile(k.w, s.Waste, ps.Waste)
		d.num(k.n, s.Count, ps.Count)
		d.boolean(k.b, s.Blocked, ps.Blocked)
		for j, c := range s.Columns {
			var pc race.ColumnView
			if j < len(ps.Columns) {
				pc = ps.Columns[j]
			}
			d.pile(k.c[j], c.Up, pc.Up)
			d.num(k.d[j], c.Down, pc.Down)
		}
	}
	// What changes when a race ends, rarely: whole values.
	if !sameResult(v.Result, p.Result) {
		d.value("result", v.Result)
	}
	d.str("code", v.Code, p.Code)
	d.str("salt", v.Salt, p.Salt)
	if !sameSeries(v.Series, p.Series) {
		d.value("series", v.Series)
	}
	d.boolean("cancelled", v.Cancelled, p.Cancelled)
	return d.end()
}

func at(piles [][]string, i int) []string {
	if i < len(piles) {
		return piles[i]
	}
	return nil
}

// keys are the delta's keys of numbered piles, made once: f1…f8, c1…c9
// and d1…d9, and each race seat's (1s, 1c1, …).
var keys = func() (k struct {
	f, c, d [9]string
	seats   [2]seatKeys
}) {
	for i := range 9 {
		n := strconv.Itoa(i + 1)
		k.f[i], k.c[i], k.d[i] = "f"+n, "c"+n, "d"+n
	}
	for i := range k.seats {
		n := strconv.Itoa(i + 1)
		s := &k.seats[i]
		s.p, s.s, s.w, s.n, s.b = n+"p", n+"s", n+"w", n+"n", n+"b"
		for j := range s.c {
			s.c[j], s.d[j] = n+k.c[j], n+k.d[j]
		}
	}
	return k
}()

// seatKeys are a race seat's keys in a delta.
type seatKeys struct {
	p, s, w, n, b string
	c, d          [7]string
}

func sameInt(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func sameBool(a, b *bool) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func samePlayer(a, b *game.PlayerRef) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func sameResult(a, b *race.ResultView) bool {
	return (a == nil) == (b == nil) && (a == nil || (sameInt(a.Winner, b.Winner) && a.Reason == b.Reason && a.Counts == b.Counts))
}

func sameSeries(a, b SeriesView) bool {
	return a.ID == b.ID && a.Games == b.Games && a.Index == b.Index && a.Totals == b.Totals &&
		a.Done == b.Done && sameInt(a.Winner, b.Winner)
}

func appendIntPtr(b []byte, n *int) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(*n), 10)
}

// deltaWriter appends the members of a delta object.
type deltaWriter struct {
	b    []byte
	some bool
}

func (d *deltaWriter) key(k string) {
	if d.some {
		d.b = append(d.b, ',')
	}
	d.some = true
	d.b = append(d.b, '"')
	d.b = append(d.b, k...)
	d.b = append(d.b, '"', ':')
}

func (d *deltaWriter) raw(k string, v []byte) {
	d.key(k)
	d.b = append(d.b, v...)
}

func (d *deltaWriter) value(k string, v any) {
	d.key(k)
	d.b = appendJSON(d.b, v)
}

func (d *deltaWriter) str(k, v, prev string) {
	if v != prev {
		d.key(k)
		d.b = strconv.AppendQuote(d.b, v) // view strings are ASCII: codes, statuses, hex
	}
}

func (d *deltaWriter) num(k string, v, prev int) {
	if v != prev {
		d.key(k)
		d.b = strconv.AppendInt(d.b, int64(v), 10)
	}
}

func (d *deltaWriter) boolean(k string, v, prev bool) {
	if v != prev {
		d.key(k)
		d.b = strconv.AppendBool(d.b, v)
	}
}

// common returns the length of the common prefix of two piles.
func common[T comparable](a, b []T) int {
	if len(a) == len(b) && len(a) > 0 && &a[0] == &b[0] {
		return len(a) // one array: a pile the view shares with the one before
	}
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// pile writes [keep, card…] when a pile of cards changed.
func (d *deltaWriter) pile(k string, v, prev []string) {
	keep := common(v, prev)
	if keep == len(v) && keep == len(prev) {
		return
	}
	d.key(k)
	d.b = append(d.b, '[')
	d.b = strconv.AppendInt(d.b, int64(keep), 10)
	for _, c := range v[keep:] {
		d.b = append(d.b, ',', '"')
		d.b = append(d.b, c...) // card texts need no escaping
		d.b = append(d.b, '"')
	}
	d.b = append(d.b, ']')
}

// foundation writes [keep, {"card","seat"}…] when a race foundation changed.
func (d *deltaWriter) foundation(k string, v, prev []race.FoundationCard) {
	keep := common(v, prev)
	if keep == len(v) && keep == len(prev) {
		return
	}
	d.key(k)
	d.b = append(d.b, '[')
	d.b = strconv.AppendInt(d.b, int64(keep), 10)
	for _, c := range v[keep:] {
		d.b = append(d.b, `,{"card":"`...)
		d.b = append(d.b, c.Card...)
		d.b = append(d.b, `","seat":`...)
		d.b = strconv.AppendInt(d.b, int64(c.Seat), 10)
		d.b = append(d.b, '}')
	}
	d.b = append(d.b, ']')
}

func (d *deltaWriter) end() []byte { return append(d.b, '}') }
