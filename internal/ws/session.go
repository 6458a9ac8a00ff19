package ws

import (
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/protocol"
)

// feedBox holds the feed a session follows, which the writer replaces and
// the read loop submits actions through.
type feedBox struct{ protocol.Feed }

// session is one open socket on one game.
type session struct {
	*connection
	h       *Handler
	game    string
	kind    string // "solo" or "race"
	viewer  int    // the seat, or 0 for a spectator
	version int    // the protocol the client asked for: 1 or 2

	// sub is the writer's current subscription, whose table the read loop
	// hands actions to.
	sub atomic.Pointer[feedBox]

	writer  *pump
	heart   *time.Timer // the heartbeat: sets beatDue and wakes the writer
	beatDue atomic.Bool
	// What the table sends waits while the client has an action in flight
	// (see held): holdFrom is when the wait began (Unix ns), 0 when nothing
	// waits; the writer's wakeIn ends it.
	holdFrom atomic.Int64

	// Owned by the writer.
	opened  bool              // the opening messages are written
	last    int64             // the seq the client is at
	over    bool              // the client was told the game is over
	batch   []outMsg          // messages waiting to be written, as one frame in protocol 2
	size    int               // their bytes
	updates []protocol.Update // the subscription's, taken for this pass
	room    []outMsg          // the answers of the pass before, emptied: the outbox's next room
}

// The most room for updates, and for answers, the writer keeps between
// passes.
const keepUpdates, keepAnswers = 8, 4

// outMsg is one message for the writer: an answer queued by the read loop
// or the table, or a message of the writer's own, encoded.
type outMsg struct {
	typ       string
	code      string    // of a reject
	closeCode int       // of a "close": the body is the reason
	body      []byte    // the JSON message
	start     time.Time // when the action it answers was read, or zero

	// An answer to an action, encoded by the writer (see answer).
	id  string
	seq int64
	dup bool
	err error
}

func newSession(h *Handler, c *websocket.Conn, game, kind string, viewer, version int) *session {
	return &session{connection: newConnection(c, &h.cfg, h.metrics, h.clock),
		h: h, game: game, kind: kind, viewer: viewer, version: version}
}

// run serves the socket until it closes: the read loop runs here, the
// writer when there is something to write (see start).
func (s *session) run(sub protocol.Feed) {
	s.sub.Store(&feedBox{sub})
	s.start(sub)
	s.serve(s.readLoop, func() <-chan struct{} {
		s.writer.wake() // it sees the end, and closes the subscription
		return s.writer.done
	})
}

// The writer runs on demand (see pump): the table wakes it when it sends
// on the subscription, the outbox when an answer is queued, the heartbeat's
// timer when a ping is due, the pump's own timer when what is held is due
// (see held), the read loop's end when the session ends. An
// idle socket thus keeps one goroutine, its read loop. A pass writes the
// opening messages (the first time), then what is ready: the events in the
// subscription, then the answers queued after them (the table publishes an
// action's event before it answers the sender), so a client reads an ack
// after its event and a pong after everything its earlier frames caused.
// In protocol 2 a pass gathers what is ready (an event and its ack, the
// events of a burst) into one frame, a JSON array, so that a busy client
// costs one write for many messages.

// start starts the writer on sub: it owns the subscription from here on.
func (s *session) start(sub protocol.Feed) {
	s.writer = newPump(s.pass, pumpLinger)
	s.out.notify = s.writer.wake
	s.heart = time.AfterFunc(s.cfg.PingInterval, func() { s.beatDue.Store(true); s.writer.wake() })
	sub.OnReady(s.ready)
	s.writer.wake() // the opening messages
}

// pass is one run of the writer; false ends it (the session ended, a close
// was written, a write failed or the game could not be followed), after
// which the subscription is closed.
func (s *session) pass() bool {
	if s.ctx.Err() != nil || !s.step() {
		s.heart.Stop()
		s.sub.Load().Close()
		return false
	}
	return true
}

// step writes what is ready; false ends the writer.
func (s *session) step() bool {
	if !s.opened {
		s.opened = true
		if !s.open(s.sub.Load()) || !s.flush() {
			return false
		}
	}
	if s.beatDue.Swap(false) {
		s.beat()
		s.heart.Reset(s.cfg.PingInterval)
	}
	if !s.answers() {
		return false
	}
	return s.held() || s.flush()
}

// answers adds the queued answers, after the events published before them;
// false ends the session (a close was among them, or the game could not be
// followed).
func (s *session) answers() bool {
	// Taken first: the event of every answer taken is then already in the
	// subscription (the table publishes it before it answers).
	msgs := s.out.take(s.room)
	s.room = nil
	if !s.events() {
		return false
	}
	for _, m := range msgs {
		if !s.take(m) {
			return false
		}
	}
	s.room = emptied(msgs, keepAnswers)
	return true
}

// events adds the updates waiting in the subscription, following the game
// to a new subscription when the table dropped this one, and writes the
// batch whenever it grows past maxBatchBytes; false ends the session.
func (s *session) events() bool {
	for {
		us, open := s.sub.Load().Take(s.updates[:0])
		ok := s.addUpdates(us)
		s.updates = emptied(us, keepUpdates)
		switch {
		case !ok:
			return false
		case open:
			return true
		case !s.follow():
			return false
		}
	}
}

// addUpdates adds updates to the batch, writing it whenever it grows past
// maxBatchBytes; false when a write failed.
func (s *session) addUpdates(us []protocol.Update) bool {
	for _, u := range us {
		s.update(u)
		if s.size >= maxBatchBytes && !s.flush() {
			return false
		}
	}
	return true
}

// emptied returns b emptied for reuse, or nil when it has room for more
// than keep elements: a burst's room, which an idle socket gives back.
func emptied[T any](b []T, keep int) []T {
	clear(b)
	if cap(b) > keep {
		return nil
	}
	return b[:0]
}
