package ws

import (
	"strings"
	"testing"
)

// TestOutboxOrder: the outbox gives the answers in the order their frames
// were read: what is queued behind a reserved slot waits for its answer,
// the writer is woken only when something may be taken, and only ready
// answers count against the limit (an answer over it is queued even so:
// the session drops the client as too slow).
func TestOutboxOrder(t *testing.T) {
	wakes := 0
	q := &outbox{max: 3, notify: func() { wakes++ }}
	types := func(ms []outMsg) string {
		var b []string
		for _, m := range ms {
			b = append(b, m.typ+m.id)
		}
		return strings.Join(b, " ")
	}
	a := q.reserve() // an action in flight
	b := q.reserve()
	for _, m := range []outMsg{{typ: "reject", id: "r"}, {typ: "pong"}, {typ: "close"}} {
		if !q.put(m) {
			t.Fatalf("put %s refused", m.typ)
		}
	}
	if wakes != 0 {
		t.Fatalf("%d wakes behind a reserved slot", wakes)
	}
	if got := q.take(nil); len(got) != 0 {
		t.Fatalf("took %q before the answer", types(got))
	}
	if q.put(outMsg{typ: "pong"}) {
		t.Fatal("a fourth ready answer was queued over the limit of 3")
	}
	if q.fill(b, outMsg{typ: "ack", id: "b"}) {
		t.Fatal("four ready answers within a limit of 3")
	}
	if wakes != 0 {
		t.Fatal("woken by an answer behind a reserved slot")
	}
	q.fill(a, outMsg{typ: "ack", id: "a"})
	if wakes != 1 || q.reserved.Load() != 0 {
		t.Fatalf("%d wakes, %d reserved", wakes, q.reserved.Load())
	}
	if got := types(q.take(nil)); got != "acka ackb rejectr pong close" {
		t.Fatalf("took %q", got)
	}

	// Taken up to the first slot still reserved; the rest keeps its place.
	q.put(outMsg{typ: "pong", id: "1"})
	c := q.reserve()
	q.put(outMsg{typ: "pong", id: "2"})
	if got := types(q.take(nil)); got != "pong1" {
		t.Fatalf("took %q", got)
	}
	q.fill(c, outMsg{typ: "ack", id: "c"})
	if got := types(q.take(make([]outMsg, 0, 4))); got != "ackc pong2" {
		t.Fatalf("took %q", got)
	}
}
