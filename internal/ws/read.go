package ws

import (
	"context"
	"errors"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/game"
	"dsol/internal/protocol"
)

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
