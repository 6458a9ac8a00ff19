package live

import (
	"hash/maphash"
	"time"

	"dsol/internal/klondike"
	"dsol/internal/protocol"
)

// A live table keeps a fixed amount of its game's history, however long the
// game: the last Window events, compactly (record), for a reconnecting
// client and the answer to a resent client id; and the ids of each seat's
// last IDHorizon actions, hashed, to recognise a resent one. Whatever is
// older is read from the store: the events a client resumes from, up to
// protocol.MaxResume behind, and the earlier event of a recognised id. The
// status of an event is not kept: every action but a game's last leaves it
// in play (a won or finished game refuses actions).
const (
	// Window is how many of the game's last events a table keeps.
	Window = 128
	// IDHorizon is how many client ids of each seat a table remembers: a
	// client resends only the actions it has no answer for, far fewer.
	IDHorizon = 128
)

// record is one event of the window: 16 bytes where an Event holds its
// action as JSON, its time, its status and its client id.
type record struct {
	at     int64 // microseconds since the epoch, as the store keeps them
	action klondike.Action
	seat   uint8
}

// recent is the window: a ring of the records of the n seqs up to last
// (the record of seq s is at (s-1) mod Window), which grows as it fills,
// up to Window.
type recent struct {
	buf  []record
	n    int
	last int64
}

// add appends the record of seq last+1.
func (r *recent) add(rec record) {
	r.last++
	i := int((r.last - 1) % Window)
	for len(r.buf) <= i {
		r.buf = append(r.buf, record{})
	}
	r.buf[i] = rec
	r.n = min(r.n+1, Window)
}

// first is the oldest seq the window holds (last+1 when empty).
func (r *recent) first() int64 { return r.last - int64(r.n) + 1 }

// get returns the record of seq, if the window holds it.
func (r *recent) get(seq int64) (record, bool) {
	if seq < r.first() || seq > r.last || seq < 1 {
		return record{}, false
	}
	return r.buf[(seq-1)%Window], true
}

// lastAt is the time of the newest event (zero: none).
func (r *recent) lastAt() time.Time {
	if rec, ok := r.get(r.last); ok {
		return time.UnixMicro(rec.at)
	}
	return time.Time{}
}

// lastAtMicro is the time of the newest event in microseconds (0: none).
func (r *recent) lastAtMicro() int64 {
	rec, _ := r.get(r.last)
	return rec.at
}

// event is the Event of seq from its record; status is the game's status
// after it.
func (rec record) event(seq int64, status string) protocol.Event {
	return protocol.Event{Seq: seq, Seat: int(rec.seat), Action: rec.action.AppendJSON(nil),
		Status: status, At: time.UnixMicro(rec.at)}
}

// idSeed keys the hashes of client ids: a table that loads again hashes
// them afresh from the store.
var idSeed = maphash.MakeSeed()

// idRing is the hashes of one seat's last IDHorizon client ids, and the
// seqs of their actions. Two different ids share a hash with odds of about
// IDHorizon in 2^64.
type idRing struct {
	hash [IDHorizon]uint64
	seq  [IDHorizon]uint32
	n    int // ids put so far
}

// clientIDs are the rings of seats 1 and 2, made on their first id.
type clientIDs [2]*idRing

// get returns the seq of seat's action with id, if remembered.
func (c *clientIDs) get(seat int, id string) (int64, bool) {
	if seat < 1 || seat > len(c) || c[seat-1] == nil {
		return 0, false
	}
	r, h := c[seat-1], maphash.String(idSeed, id)
	for i := range min(r.n, IDHorizon) {
		if r.hash[i] == h {
			return int64(r.seq[i]), true
		}
	}
	return 0, false
}

// put remembers that seat's action with id is seq, forgetting the seat's
// oldest id once it holds IDHorizon.
func (c *clientIDs) put(seat int, id string, seq int64) {
	if seat < 1 || seat > len(c) {
		return
	}
	if c[seat-1] == nil {
		c[seat-1] = new(idRing)
	}
	r := c[seat-1]
	i := r.n % IDHorizon
	r.hash[i], r.seq[i] = maphash.String(idSeed, id), uint32(seq)
	r.n++
}
