package ws

import (
	"encoding/json"
	"strconv"
	"time"

	"dsol/internal/game"
	"dsol/internal/protocol"
)

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
