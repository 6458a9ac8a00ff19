package ws

import (
	"sync"
	"sync/atomic"
)

// outbox is the queue of answers to one client (acks, rejects, pongs, a
// close), written by the read loop and the table and read by the writer, in
// the order of the client's frames. The read loop queues what it answers
// itself (put) and reserves a slot for what the table will answer (reserve,
// then fill from the table's goroutine); the writer takes the answers up to
// the first slot still reserved, so that an answer never overtakes the
// answer of a frame read before it, and a queued close waits for the answers
// before it. It is a slice that grows with what waits; the writer hands back
// the slice it drained as the room for what comes next (see take), and lets
// it go when it grew large, so that an idle connection holds at most a small
// buffer. notify tells the writer that something may be taken (it must not
// block).
type outbox struct {
	mu     sync.Mutex
	msgs   []outMsg // in the order of the answers; typ "" is a reserved slot
	first  int64    // the ticket of msgs[0]: the number of messages taken so far
	ready  int      // the messages in msgs that are not reserved slots
	max    int
	notify func()
	// reserved counts the slots reserved and not filled: the client's
	// actions in flight.
	reserved atomic.Int64
}

// put queues a message after everything queued or reserved before it, or
// reports false when max messages are waiting to be written: the client
// does not read.
func (q *outbox) put(m outMsg) bool {
	q.mu.Lock()
	if q.ready >= q.max {
		q.mu.Unlock()
		return false
	}
	q.msgs = append(q.msgs, m)
	q.ready++
	wake := q.reserved.Load() == 0 // else the fill of the slot before it wakes the writer
	q.mu.Unlock()
	if wake {
		q.notify()
	}
	return true
}

// reserve queues a slot for an answer to come, and returns its ticket for
// fill. Slots do not count against max: the table's queue bounds the
// actions in flight.
func (q *outbox) reserve() int64 {
	q.mu.Lock()
	q.msgs = append(q.msgs, outMsg{})
	t := q.first + int64(len(q.msgs)) - 1
	q.reserved.Add(1)
	q.mu.Unlock()
	return t
}

// fill puts the answer m in the slot of ticket, and reports false when more
// than max messages now wait to be written (the answer is queued even so).
func (q *outbox) fill(ticket int64, m outMsg) bool {
	q.mu.Lock()
	i := int(ticket - q.first)
	q.msgs[i] = m
	q.ready++
	q.reserved.Add(-1)
	ok := q.ready <= q.max
	wake := true // when no slot before it is still reserved
	for _, p := range q.msgs[:i] {
		if p.typ == "" {
			wake = false
			break
		}
	}
	q.mu.Unlock()
	if wake {
		q.notify()
	}
	return ok
}

// take returns the messages that may be written, in order (those before the
// first reserved slot), and leaves the rest queued; room, a slice the writer
// is done with (emptied, or nil), is where what stays and what comes next
// is queued.
func (q *outbox) take(room []outMsg) []outMsg {
	q.mu.Lock()
	msgs := q.msgs
	n := 0
	for n < len(msgs) && msgs[n].typ != "" {
		n++
	}
	q.msgs = append(room[:0], msgs[n:]...)
	clear(msgs[n:])
	q.first += int64(n)
	q.ready -= n
	q.mu.Unlock()
	return msgs[:n]
}
