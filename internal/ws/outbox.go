package ws

import "sync"

// outbox is the queue of answers to one client (acks, rejects, pongs, a
// close), written by the read loop and the table and read by the writer. It
// is a slice that grows with what waits; the writer hands back the slice it
// drained as the room for what comes next (see take), and lets it go when
// it grew large, so that an idle connection holds at most a small buffer.
// notify tells the writer that something waits (it must not block).
type outbox struct {
	mu     sync.Mutex
	msgs   []outMsg
	max    int
	notify func()
}

func newOutbox(max int) *outbox { return &outbox{max: max} }

// put queues a message, or reports false when max are waiting: the client
// does not read.
func (q *outbox) put(m outMsg) bool {
	q.mu.Lock()
	if len(q.msgs) >= q.max {
		q.mu.Unlock()
		return false
	}
	q.msgs = append(q.msgs, m)
	q.mu.Unlock()
	q.notify()
	return true
}

// take returns what waits, in order, and empties the queue; room, a slice
// the writer is done with (emptied, or nil), is where what comes next is
// queued.
func (q *outbox) take(room []outMsg) []outMsg {
	q.mu.Lock()
	msgs := q.msgs
	q.msgs = room[:0]
	q.mu.Unlock()
	return msgs
}
