package ws

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/game"
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
	// waits; hold, made on first use, wakes the writer when it is over.
	holdFrom atomic.Int64
	holdOnce sync.Once
	hold     *time.Timer

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

// ---- reading ----

// readLoop reads and handles frames one at a time, so that one client's
// actions reach the table in the order it sent them. Once the session has
// decided to close, or was revoked, it reads on, ignoring frames, until the
// close handshake ends the connection.
func (s *session) readLoop() {
	for {
		typ, data, err := s.read()
		if err != nil {
			return
		}
		if s.ending || s.ctx.Err() != nil {
			continue
		}
		start := time.Now()
		f, ferr := protocol.DecodeFrame(typ == websocket.MessageText, data)
		if ferr == protocol.ErrNotUTF8 {
			s.h.metrics.ObserveWSIn("invalid")
			s.end(protocol.CloseInvalidData, ferr.Msg)
			continue
		}
		if !s.allow() {
			s.h.metrics.ObserveWSIn("invalid")
			if !s.strike() {
				s.end(protocol.ClosePolicy, "too many messages")
				continue
			}
			s.reject(f.ID, game.Errorf(game.RateLimited, "too many messages; slow down"), time.Time{})
			continue
		}
		if f.Type == "action" {
			s.h.metrics.ObserveWSIn("action")
		}
		if ferr != nil {
			if f.Type == "action" {
				s.h.metrics.ObserveAction("", string(ferr.Code))
			}
			s.bad(f.ID, ferr.Msg, start)
			continue
		}
		switch f.Type {
		case "action":
			s.action(f, start)
		case "ping":
			s.h.metrics.ObserveWSIn("ping")
			s.ping()
		}
	}
}

// end has the writer close the socket once it has written the answers of
// every frame read before: the acks of the actions in flight (which the
// table may have stored) and the rejects that explain the close arrive
// before it.
func (s *session) end(code int, reason string) {
	s.ending = true
	s.send(outMsg{typ: "close", closeCode: code, body: []byte(reason)})
}

// bad rejects a malformed frame, or closes the socket when such frames keep
// coming.
func (s *session) bad(id, msg string, start time.Time) {
	s.h.metrics.ObserveWSIn("invalid")
	if !s.strike() {
		s.end(protocol.ClosePolicy, "too many bad messages")
		return
	}
	s.reject(id, game.Errorf(game.BadRequest, "%s", msg), start)
}

// action hands one decoded action to the table without waiting for it: the
// answer (ack or reject) reaches the client through the writer, so the read
// loop goes on reading (pongs too) while the table commits. Actions of one
// connection reach the table in the order they were read, and the answer
// takes the place in the outbox that the action's frame had in the order
// of the client's frames.
func (s *session) action(f protocol.ClientFrame, start time.Time) {
	id := f.ID
	if s.viewer == 0 {
		s.reject(id, game.Errorf(game.Forbidden, "spectators cannot play"), start)
		return
	}
	cmd := f.Cmd
	cmd.Seat = s.viewer
	slot := s.out.reserve()
	s.submit(cmd, func(res protocol.Result, err error) { s.answer(slot, id, start, res, err) })
}

// pong is the answer to a ping.
var pong = []byte(`{"type":"pong"}`)

// ping answers a ping. Like every answer it follows, in the outbox, the
// answers to the frames read before it, and the writer adds the events
// published before those: a client's frames are answered in the order it
// sent them, and a pong comes after everything its earlier frames caused.
func (s *session) ping() { s.send(outMsg{typ: "pong", body: pong}) }

// submit hands a command to the game's table; answer is called once.
func (s *session) submit(cmd protocol.Command, answer func(protocol.Result, error)) {
	// The command's context is not the session's: an action read before the
	// socket closed is applied even so, and its answer written before the
	// close the session queues (a socket that drops answers nothing more; a
	// resend with the action's id finds it).
	err := s.sub.Load().Submit(context.Background(), cmd, answer)
	if err == nil {
		return // handed over: the table answers
	}
	if !errors.Is(err, protocol.ErrStopped) {
		answer(protocol.Result{}, err)
		return
	}
	// The table stopped (evicted or reloading) and the writer will follow
	// its successor: the registry finds or rebuilds it. This one waits, so
	// that the client's next actions still follow this one.
	ctx, cancel := context.WithTimeout(s.ctx, s.h.cfg.ActionTimeout)
	res, err := s.h.games.Do(ctx, s.game, cmd)
	cancel()
	answer(res, err)
}

// answer puts the answer to an action in its slot: an ack once it is
// durable, or a reject (live.ErrStopped, an action the table had taken
// but stopped before applying, is unavailable: send it again). It runs on
// the table's goroutine, so it only queues; the writer encodes.
func (s *session) answer(slot int64, id string, start time.Time, res protocol.Result, err error) {
	m := outMsg{typ: "ack", id: id, seq: res.Seq, dup: res.Duplicate, start: start}
	if err != nil {
		m = outMsg{typ: "reject", id: id, err: err, start: start}
	}
	if !s.out.fill(slot, m) {
		s.slow()
	}
}

// reject queues a reject.
func (s *session) reject(id string, err error, start time.Time) {
	s.send(outMsg{typ: "reject", id: id, err: err, start: start})
}

// send queues an answer of the read loop's own, after the answers to the
// frames read before; a client whose queue is full is too slow.
func (s *session) send(m outMsg) {
	if !s.out.put(m) {
		s.slow()
	}
}

// ---- writing ----

// Server messages.
type (
	stateMsg struct {
		Type string        `json:"type"` // "state"
		Seq  int64         `json:"seq"`
		Game protocol.View `json:"game"`
	}
	rejectMsg struct {
		Type  string    `json:"type"` // "reject"
		ID    string    `json:"id"`
		Error errorJSON `json:"error"`
	}
	errorJSON struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	overMsg struct {
		Type   string          `json:"type"` // "over"
		Result json.RawMessage `json:"result"`
	}
)

// maxBatchBytes bounds the messages the writer gathers into one frame of
// protocol 2.
const maxBatchBytes = 16 << 10

// The writer runs on demand (see pump): the table wakes it when it sends
// on the subscription, the outbox when an answer is queued, the heartbeat's
// timer when a ping is due, the read loop's end when the session ends. An
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

// holdBegin starts a wait at now, unless one is under way: the hold's
// timer wakes the writer HoldEvents later.
func (s *session) holdBegin(now int64) {
	if s.holdFrom.CompareAndSwap(0, now) {
		s.holdTimer().Reset(s.cfg.HoldEvents)
	}
}

// holdTimer returns the hold's timer, made on first use (by the table's
// goroutine or the writer).
func (s *session) holdTimer() *time.Timer {
	s.holdOnce.Do(func() {
		s.hold = time.AfterFunc(time.Hour, func() {
			if s.holdFrom.Load() != 0 {
				s.writer.wake()
			}
		})
		s.hold.Stop()
	})
	return s.hold
}

// holdEnd ends the wait once the writer has written what waited: anything
// the table sent since it took the updates waits anew.
func (s *session) holdEnd() {
	if s.holdFrom.Load() == 0 {
		return
	}
	s.holdTimer().Stop() // made already, or being made by holdBegin
	s.holdFrom.Store(0)
	if s.sub.Load().Pending() {
		s.holdBegin(time.Now().UnixNano())
	}
}

// pass is one run of the writer; false ends it (the session ended, a close
// was written, a write failed or the game could not be followed), after
// which the subscription is closed.
func (s *session) pass() bool {
	if s.ctx.Err() != nil || !s.step() {
		s.heart.Stop()
		s.holdTimer().Stop()
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
	s.holdTimer().Reset(left)
	return true
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

// take adds an answer to the batch; a queued close writes the batch, then
// closes the socket, and returns false.
func (s *session) take(m outMsg) bool {
	if m.typ == "close" {
		if s.flush() {
			s.close(m.closeCode, string(m.body))
		}
		return false
	}
	switch m.typ {
	case "ack":
		b := append(make([]byte, 0, 64), `{"type":"ack","id":`...)
		b = strconv.AppendQuote(b, m.id) // a client id is printable ASCII: the same in JSON
		b = append(b, `,"seq":`...)
		b = strconv.AppendInt(b, m.seq, 10)
		if m.dup {
			b = append(b, `,"duplicate":true`...)
		}
		m.body = append(b, '}')
	case "reject":
		e := protocol.AsError(m.err)
		switch e.Code {
		case game.Internal:
			s.h.log.Error("ws: internal error", "game", s.game, "err", m.err)
		case game.Unavailable:
			s.h.log.Warn("ws: unavailable", "game", s.game, "err", m.err)
		}
		m.code = string(e.Code)
		m.body, _ = json.Marshal(rejectMsg{Type: "reject", ID: m.id, Error: errorJSON{Code: m.code, Message: e.Msg}})
	}
	s.add(m)
	return true
}

// add puts a message in the batch.
func (s *session) add(m outMsg) {
	s.batch = append(s.batch, m)
	s.size += len(m.body)
}

// addJSON encodes a message of the writer's own into the batch.
func (s *session) addJSON(typ string, v any) {
	b, err := json.Marshal(v)
	if err != nil { // views and notices always encode
		panic("ws: " + typ + " does not encode: " + err.Error())
	}
	s.add(outMsg{typ: typ, body: b})
}

// flush writes the batch: in protocol 1 a frame per message, in protocol 2
// one frame, the message itself or a JSON array of them.
func (s *session) flush() bool {
	defer func() {
		clear(s.batch)
		s.batch, s.size = s.batch[:0], 0
		s.holdEnd()
	}()
	if len(s.batch) == 0 {
		return true
	}
	if s.version < 2 || len(s.batch) == 1 {
		for _, m := range s.batch {
			if !s.writeFrame(m.body) {
				return false
			}
		}
	} else {
		b := make([]byte, 0, s.size+len(s.batch)+1)
		for i, m := range s.batch {
			if i == 0 {
				b = append(b, '[')
			} else {
				b = append(b, ',')
			}
			b = append(b, m.body...)
		}
		if !s.writeFrame(append(b, ']')) {
			return false
		}
	}
	for _, m := range s.batch {
		s.count(m)
		if !m.start.IsZero() {
			s.h.metrics.ObserveWSAction(time.Since(m.start))
		}
	}
	return true
}

// update adds what the table sent: a notice, or an event (and the end of a
// solo game).
func (s *session) update(u protocol.Update) {
	if n := u.Notice; n != nil { // presence, or the end of a race
		if n.Type == "over" {
			if s.over {
				return
			}
			s.over = true
		}
		s.addJSON(n.Type, n)
		return
	}
	f := u.Frame
	ev := &f.Event
	if ev.Seq <= s.last {
		return
	}
	if ev.Seq != s.last+1 { // never expected: resync on the view
		s.h.log.Error("ws: event gap", "game", s.game, "after", s.last, "got", ev.Seq)
		s.addJSON("state", stateMsg{Type: "state", Seq: ev.Seq, Game: f.View})
	} else if s.version >= 2 {
		s.add(outMsg{typ: "event", body: f.Delta()})
	} else {
		s.add(outMsg{typ: "event", body: f.Full()})
	}
	s.last = ev.Seq
	if !s.over && s.kind != "race" && terminal(ev.Status) { // races: the table's notice
		s.over = true
		s.addOver(ev.Status, f.View)
	}
}

// open adds what a new connection needs: the missed events after its since,
// or the state. Protocol 2 has deltas only for live events, so it gets the
// state whenever it missed any. Then the live check's answer at its seq,
// when it came before the connection (it may have missed the notice).
func (s *session) open(sub protocol.Feed) bool {
	start := sub.Start()
	st := start.View.GameStatus()
	s.last, s.over = start.Seq, terminal(st)
	if !start.Resumed || len(start.Missed) > s.h.cfg.MaxResume || (s.version >= 2 && len(start.Missed) > 0) {
		s.addJSON("state", stateMsg{Type: "state", Seq: start.Seq, Game: start.View})
	} else {
		s.addMissed(start, false)
		if n := len(start.Missed); n > 0 && s.over && terminal(start.Missed[n-1].Status) {
			s.addOver(st, start.View)
		}
	}
	if start.Check != nil { // the live check's answer, which came before the socket
		s.addJSON("check", start.Check)
	}
	sub.ReleaseStart()
	return true
}

// addMissed adds a resumed feed's missed events (protocol 1): the last one
// carries the view at the start's seq, which is its own. With tell, the
// event that ended the game is followed by "over".
func (s *session) addMissed(start *protocol.Start, tell bool) {
	for i, ev := range start.Missed {
		f := &protocol.Frame{Event: ev}
		if i == len(start.Missed)-1 {
			f.View = start.View
			s.add(outMsg{typ: "event", body: f.Full()})
		} else {
			s.addJSON("event", missedMsg(ev))
		}
		if tell && !s.over && terminal(ev.Status) {
			s.over = true
			s.addOver(ev.Status, start.View)
		}
	}
}

// missedMsg is a missed event without a view (protocol 1).
func missedMsg(ev protocol.Event) any {
	return struct {
		Type   string          `json:"type"`
		Seq    int64           `json:"seq"`
		Seat   int             `json:"seat"`
		Action json.RawMessage `json:"action"`
		Status string          `json:"status"`
		At     time.Time       `json:"at"`
	}{"event", ev.Seq, ev.Seat, ev.Action, ev.Status, ev.At}
}

// follow resubscribes after the table dropped the subscription (writing the
// batch first), then adds what the client missed meanwhile.
func (s *session) follow() bool {
	if !s.flush() {
		return false
	}
	old := s.sub.Load()
	sub, err := s.resubscribe(old, s.last)
	if err != nil {
		return false
	}
	old.Close()
	s.sub.Store(&feedBox{sub})
	sub.OnReady(s.ready) // what it sent before is read below
	start := sub.Start()
	if !start.Resumed || len(start.Missed) > s.h.cfg.MaxResume || (s.version >= 2 && len(start.Missed) > 0) {
		s.addJSON("state", stateMsg{Type: "state", Seq: start.Seq, Game: start.View})
		s.over = s.over || terminal(start.View.GameStatus())
	} else {
		s.addMissed(start, true)
	}
	s.last = start.Seq
	sub.ReleaseStart()
	return s.flush()
}

// resubscribe follows the game after the table dropped the subscription:
// a slow client is disconnected (1013), a stopped or reloaded table is
// subscribed to again from the last seq sent, and when that fails the
// socket closes with the error's close code (1012 when the server stops).
func (s *session) resubscribe(old protocol.Feed, last int64) (protocol.Feed, error) {
	err := old.Err()
	if errors.Is(err, protocol.ErrSlow) {
		s.slow()
		return nil, err
	}
	if s.ctx.Err() != nil {
		return nil, s.ctx.Err()
	}
	if errors.Is(err, protocol.ErrMoved) {
		// The game moved to another node: the client reconnects and the
		// routing takes it there.
		s.closeAsync(protocol.CloseRestart, "the game moved to another node; reconnect")
		return nil, err
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.h.cfg.ActionTimeout)
	defer cancel()
	sub, err := s.h.games.Resubscribe(ctx, s.game, s.viewer, last)
	if err == nil {
		return sub, nil
	}
	code := protocol.CloseCode(protocol.AsError(err).Code)
	if errors.Is(err, protocol.ErrClosed) || protocol.AsError(err).Code == game.Unavailable {
		code = protocol.CloseRestart
	}
	s.closeAsync(code, "the game cannot be followed; reconnect")
	return nil, err
}

// addOver adds {"type": "over", "result"}: the race's result from its view,
// or for a solo game {"status", "score", "moves"}.
func (s *session) addOver(status string, view protocol.View) {
	var res json.RawMessage
	switch v := view.(type) {
	case protocol.RaceView:
		if v.Result != nil {
			res, _ = json.Marshal(v.Result)
		} else {
			res, _ = json.Marshal(map[string]any{"status": status})
		}
	case protocol.SoloView:
		res, _ = json.Marshal(map[string]any{"status": status, "score": v.Score, "moves": v.Moves})
	default:
		res, _ = json.Marshal(map[string]any{"status": status})
	}
	s.addJSON("over", overMsg{Type: "over", Result: res})
}

// terminal reports whether a game status ends the game.
func terminal(status string) bool {
	return status != "" && status != "playing" && status != "waiting"
}
