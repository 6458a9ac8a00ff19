package ws

import "sync"

// outbox is the queue of answers to one client (acks, rejects, pongs, a
// close), written by the read loop and the table and read by the writer. It
// is a slice that grows with what waits and is let go when drained, so that
// an idle connection holds no buffer; notify tells the writer that
// something waits (it must not block).
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

// take returns what waits, in order, and empties the queue.
func (q *outbox) take() []outMsg {
	q.mu.Lock()
	msgs := q.msgs
	q.msgs = nil
	q.mu.Unlock()
	return msgs
}
