// Package recent is the bounded history a live table keeps of its game,
// however long the game: the last events, compactly, and the hashed client
// ids of each seat's last actions.
package recent

import (
	"hash/maphash"
	"time"

	"dsol/internal/klondike"
	"dsol/internal/protocol"
)

// A live table keeps a fixed amount of its game's history, however long the
// game: the last Window events, compactly (Record), for a reconnecting
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

// Record is one event of the window: 16 bytes where an Event holds its
// action as JSON, its time, its status and its client id.
type Record struct {
	At     int64 // microseconds since the epoch, as the store keeps them
	Action klondike.Action
	Seat   uint8
}

// Events is the window: a ring of the records of the n seqs up to last
// (the record of seq s is at (s-1) mod Window), which grows as it fills,
// up to Window.
type Events struct {
	buf    []Record
	n      int
	last   int64
	lastAt int64 // the time of seq last in microseconds, kept by Release (0: none)
}

// After returns the empty window of a game at seq: its first record is
// of seq+1.
func After(seq int64) Events { return Events{last: seq} }

// Last is the seq of the newest record.
func (r *Events) Last() int64 { return r.last }

// LastAt is the time of the newest record in microseconds (0: none).
func (r *Events) LastAt() int64 { return r.lastAt }

// Add appends the record of seq last+1.
func (r *Events) Add(rec Record) {
	r.last++
	i := int((r.last - 1) % Window)
	for len(r.buf) <= i {
		r.buf = append(r.buf, Record{})
	}
	r.buf[i] = rec
	r.n = min(r.n+1, Window)
	r.lastAt = rec.At
}

// Release lets go of the records, not of the seq or the time of the last
// one: a parked table's reads of its events go to the store until the
// next event.
func (r *Events) Release() { r.buf, r.n = nil, 0 }

// First is the oldest seq the window holds (last+1 when empty).
func (r *Events) First() int64 { return r.last - int64(r.n) + 1 }

// Get returns the record of seq, if the window holds it.
func (r *Events) Get(seq int64) (Record, bool) {
	if seq < r.First() || seq > r.last || seq < 1 {
		return Record{}, false
	}
	return r.buf[(seq-1)%Window], true
}

// LastTime is the time of the newest event (zero: none).
func (r *Events) LastTime() time.Time {
	if r.lastAt == 0 {
		return time.Time{}
	}
	return time.UnixMicro(r.lastAt)
}

// Event is the Event of seq from its record; status is the game's status
// after it.
func (rec Record) Event(seq int64, status string) protocol.Event {
	return protocol.Event{Seq: seq, Seat: int(rec.Seat), Action: rec.Action.AppendJSON(nil),
		Status: status, At: time.UnixMicro(rec.At)}
}

// idSeed keys the hashes of client ids: a table that loads again hashes
// them afresh from the store.
var idSeed = maphash.MakeSeed()

// idRing is the hashes of one seat's last IDHorizon client ids, and the
// seqs of their actions: 1,536 bytes, a size the allocator has. Two
// different ids share a hash with odds of about IDHorizon in 2^64.
type idRing struct {
	hash [IDHorizon]uint64
	seq  [IDHorizon]uint32
}

// ClientIDs are the rings of seats 1 and 2, made on their first id, and
// how many ids each was given.
type ClientIDs struct {
	rings [2]*idRing
	n     [2]int
}

// Get returns the seq of seat's action with id, if remembered.
func (c *ClientIDs) Get(seat int, id string) (int64, bool) {
	if seat < 1 || seat > len(c.rings) || c.rings[seat-1] == nil {
		return 0, false
	}
	r, h := c.rings[seat-1], maphash.String(idSeed, id)
	for i := range min(c.n[seat-1], IDHorizon) {
		if r.hash[i] == h {
			return int64(r.seq[i]), true
		}
	}
	return 0, false
}

// Put remembers that seat's action with id is seq, forgetting the seat's
// oldest id once it holds IDHorizon.
func (c *ClientIDs) Put(seat int, id string, seq int64) {
	if seat < 1 || seat > len(c.rings) {
		return
	}
	if c.rings[seat-1] == nil {
		c.rings[seat-1] = new(idRing)
	}
	r := c.rings[seat-1]
	i := c.n[seat-1] % IDHorizon
	r.hash[i], r.seq[i] = maphash.String(idSeed, id), uint32(seq)
	c.n[seat-1]++
}
