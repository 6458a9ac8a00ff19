package ws

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"dsol/internal/game"
	"dsol/internal/protocol"
)

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
