package ws

import "time"

// ready is the subscription's OnReady, on the table's goroutine: it wakes
// the writer, unless the client has an action in flight. The answer then
// wakes it, or the hold's timer once HoldEvents is over (see held).
func (s *session) ready() {
	if s.holding() {
		s.holdBegin(time.Now().UnixNano())
		return
	}
	s.writer.wake()
}

// holding reports whether what the table sends waits for the client's
// answer: in protocol 2, while an action of the client is in flight.
func (s *session) holding() bool {
	return s.version >= 2 && s.cfg.HoldEvents > 0 && s.out.reserved.Load() > 0
}

// holdBegin starts a wait at now, unless one is under way: the writer
// wakes HoldEvents later.
func (s *session) holdBegin(now int64) {
	if s.holdFrom.CompareAndSwap(0, now) {
		s.writer.wakeIn(s.cfg.HoldEvents)
	}
}

// holdEnd ends the wait once the writer has written what waited: anything
// the table sent since it took the updates waits anew.
func (s *session) holdEnd() {
	if s.holdFrom.Load() == 0 {
		return
	}
	s.writer.stopTimer()
	s.holdFrom.Store(0)
	if s.sub.Load().Pending() {
		s.holdBegin(time.Now().UnixNano())
	}
}

// held reports whether the writer keeps the batch for a later pass: while
// the client has an action in flight (holding) and the batch holds no
// answer, for up to Config.HoldEvents from when the first of it came. The
// answer, which comes with the commit under way, then shares their frame
// and their write. The events of a race's other seat, and an event whose
// answer follows it by microseconds, would else cost a write each, and the
// client a read; the table does not even wake the writer for them (ready).
// A client that is not acting gets everything at once; an answer is never
// held.
func (s *session) held() bool {
	if !s.holding() || len(s.batch) == 0 || s.size >= maxBatchBytes {
		return false
	}
	for _, m := range s.batch {
		switch m.typ {
		case "ack", "reject", "pong":
			return false
		}
	}
	now := time.Now().UnixNano()
	s.holdBegin(now)
	left := s.cfg.HoldEvents - time.Duration(now-s.holdFrom.Load())
	if left <= 0 {
		return false
	}
	s.writer.wakeIn(left)
	return true
}
