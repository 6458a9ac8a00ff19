package ws

import (
	"context"
	"encoding/json"
	"errors"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"

	"dsol/internal/input"
	"dsol/internal/klondike"
	"dsol/internal/table"
)

// session is one open socket on one game.
type session struct {
	*connection
	h      *Handler
	game   string
	kind   string // "solo" or "race"
	viewer int    // the seat, or 0 for a spectator
}

// outMsg is one encoded frame for the writer.
type outMsg struct {
	typ       string
	code      string    // of a reject
	closeCode int       // of a "close": the body is the reason
	body      []byte    // the JSON frame
	start     time.Time // when the action it answers was read, or zero
}

func newSession(h *Handler, c *websocket.Conn, game, kind string, viewer int) *session {
	return &session{connection: newConnection(c, &h.cfg, h.metrics, h.clock),
		h: h, game: game, kind: kind, viewer: viewer}
}

// run serves the socket until it closes.
func (s *session) run(sub *table.Subscription) {
	s.connection.run(func() { s.writer(sub) }, s.readLoop)
}

// ---- reading ----

// readLoop reads and handles frames one at a time, so that one client's
// actions reach the table in the order it sent them. Once the session has
// decided to close it reads on, ignoring frames, until the close handshake
// ends the connection.
func (s *session) readLoop() {
	for {
		typ, data, err := s.ws.Read(s.ctx)
		if err != nil {
			return
		}
		if s.ending {
			continue
		}
		start := time.Now()
		f, ferr := decodeFrame(typ, data)
		if ferr == errNotUTF8 {
			s.h.metrics.ObserveWSIn("invalid")
			s.end(CloseInvalidData, ferr.Msg)
			continue
		}
		if !s.allow() {
			s.h.metrics.ObserveWSIn("invalid")
			if !s.strike() {
				s.end(ClosePolicy, "too many messages")
				continue
			}
			s.reject(f.id, table.Errorf(table.RateLimited, "too many messages; slow down"), time.Time{})
			continue
		}
		if f.typ == "action" {
			s.h.metrics.ObserveWSIn("action")
		}
		if ferr != nil {
			if f.typ == "action" {
				s.h.metrics.ObserveAction("", string(ferr.Code))
			}
			s.bad(f.id, ferr.Msg, start)
			continue
		}
		switch f.typ {
		case "action":
			s.action(f, start)
		case "ping":
			s.h.metrics.ObserveWSIn("ping")
			s.send(outMsg{typ: "pong", body: []byte(`{"type":"pong"}`)})
		}
	}
}

// frame is a decoded client frame.
type frame struct {
	typ    string // "action" or "ping"; for a refused frame, "action" or ""
	id     string // the client action id; for a refused frame, the id to reject it with
	action klondike.Action
	seq    *int64
}

// errNotUTF8 refuses a text frame that is not UTF-8, which RFC 6455 does not
// allow: the read loop closes the socket with 1007 instead of rejecting it.
var errNotUTF8 = table.Errorf(table.BadRequest, "a text frame must be UTF-8")

// checkFrame refuses a client frame, of a game or the lobby, that is not
// JSON text passing input.CheckJSON: errNotUTF8 for text that is not UTF-8,
// else a bad_request.
func checkFrame(typ websocket.MessageType, data []byte) *table.Error {
	if typ != websocket.MessageText {
		return table.Errorf(table.BadRequest, "frames are JSON text")
	}
	if !utf8.Valid(data) {
		return errNotUTF8
	}
	if err := input.CheckJSON(data); err != nil {
		return table.Errorf(table.BadRequest, "a frame is one JSON object: %v", err)
	}
	return nil
}

// decodeFrame reads a client frame: {"type": "ping"} or an action frame
// {"type": "action", "id", "action", "seq"}, read by table.DecodeCommand
// with the rules of the REST API. A refusal is a bad_request, which the read
// loop rejects (and counts a strike), except errNotUTF8, which closes the
// socket.
func decodeFrame(typ websocket.MessageType, data []byte) (frame, *table.Error) {
	if err := checkFrame(typ, data); err != nil {
		return frame{}, err
	}
	var m struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return frame{}, table.Errorf(table.BadRequest, "a frame is one JSON object such as {\"type\": \"action\", ...}")
	}
	switch m.Type {
	case "action":
		c, err := table.DecodeCommand(data, true)
		if err != nil {
			return frame{typ: "action", id: idOf(data)}, table.AsError(err)
		}
		return frame{typ: "action", id: c.ClientID, action: c.Action, seq: c.Seq}, nil
	case "ping":
		return frame{typ: "ping"}, nil
	}
	return frame{id: idOf(data)}, table.Errorf(table.BadRequest, "unknown message type; send \"action\" or \"ping\"")
}

// end has the writer close the socket once it has written the frames queued
// before: the rejects that explain the close arrive before it.
func (s *session) end(code int, reason string) {
	s.ending = true
	s.send(outMsg{typ: "close", closeCode: code, body: []byte(reason)})
}

// bad rejects a malformed frame, or closes the socket when such frames keep
// coming.
func (s *session) bad(id, msg string, start time.Time) {
	s.h.metrics.ObserveWSIn("invalid")
	if !s.strike() {
		s.end(ClosePolicy, "too many bad messages")
		return
	}
	s.reject(id, table.Errorf(table.BadRequest, "%s", msg), start)
}

// idOf finds the client id of a frame that could not be handled, if any.
func idOf(data []byte) string {
	var m struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(data, &m) != nil || !table.ValidClientID(m.ID) {
		return ""
	}
	return m.ID
}

// action sends one decoded action to the table and answers with ack or
// reject.
func (s *session) action(f frame, start time.Time) {
	id, a := f.id, f.action
	if s.viewer == 0 {
		s.reject(id, table.Errorf(table.Forbidden, "spectators cannot play"), start)
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.h.cfg.ActionTimeout)
	res, err := s.h.tables.Do(ctx, s.game, table.Command{Seat: s.viewer, Action: a, ClientID: id, Seq: f.seq})
	cancel()
	if err != nil {
		if s.ctx.Err() != nil {
			return // the socket is closing
		}
		s.reject(id, err, start)
		return
	}
	b, _ := json.Marshal(ackMsg{Type: "ack", ID: id, Seq: res.Seq, Duplicate: res.Duplicate})
	s.send(outMsg{typ: "ack", body: b, start: start})
}

// reject queues a reject; internal errors are logged, never detailed.
func (s *session) reject(id string, err error, start time.Time) {
	e := table.AsError(err)
	switch e.Code {
	case table.Internal:
		s.h.log.Error("ws: internal error", "game", s.game, "err", err)
	case table.Unavailable:
		s.h.log.Warn("ws: unavailable", "game", s.game, "err", err)
	}
	b, _ := json.Marshal(rejectMsg{Type: "reject", ID: id, Error: errorJSON{Code: string(e.Code), Message: e.Msg}})
	s.send(outMsg{typ: "reject", code: string(e.Code), body: b, start: start})
}

// send queues an answer; a client whose queue is full is too slow.
func (s *session) send(m outMsg) {
	select {
	case s.out <- m:
	default:
		s.slow()
	}
}

// ---- writing ----

// Server frames.
type (
	stateMsg struct {
		Type string `json:"type"` // "state"
		Seq  int64  `json:"seq"`
		Game any    `json:"game"`
	}
	eventMsg struct {
		Type   string          `json:"type"` // "event"
		Seq    int64           `json:"seq"`
		Seat   int             `json:"seat"`
		Action json.RawMessage `json:"action"`
		Status string          `json:"status"`
		At     time.Time       `json:"at"`
		Game   any             `json:"game,omitempty"`
	}
	ackMsg struct {
		Type      string `json:"type"` // "ack"
		ID        string `json:"id"`
		Seq       int64  `json:"seq"`
		Duplicate bool   `json:"duplicate,omitempty"`
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

// writer writes the opening frames, then the answers and the events until
// the session ends. It owns the subscription.
func (s *session) writer(sub *table.Subscription) {
	defer func() { sub.Close() }()
	last, over, ok := s.open(sub)
	if !ok {
		return
	}
	for {
		select {
		case <-s.ctx.Done():
			return
		case m := <-s.out:
			if m.typ == "close" {
				s.close(m.closeCode, string(m.body))
				return
			}
			if !s.write(m) {
				return
			}
			if !m.start.IsZero() {
				s.h.metrics.ObserveWSAction(time.Since(m.start))
			}
		case u, open := <-sub.C:
			if !open {
				next, err := s.resubscribe(sub, last)
				if err != nil {
					return
				}
				sub = next
				if last, over, ok = s.resume(sub, last, over); !ok {
					return
				}
				continue
			}
			if u.Notice != nil { // presence, or the end of a race
				if u.Notice.Type == "over" {
					if over {
						continue
					}
					over = true
				}
				if !s.writeJSON(u.Notice.Type, u.Notice) {
					return
				}
				continue
			}
			if u.Event.Seq <= last {
				continue
			}
			if u.Event.Seq != last+1 { // never expected: resync on the view
				s.h.log.Error("ws: event gap", "game", s.game, "after", last, "got", u.Event.Seq)
				if !s.writeJSON("state", stateMsg{Type: "state", Seq: u.Event.Seq, Game: u.View}) {
					return
				}
			} else if !s.writeEvent(u.Event, u.View) {
				return
			}
			last = u.Event.Seq
			if !over && s.kind != "race" && terminal(u.Event.Status) { // races: the table's notice
				over = true
				if !s.writeOver(u.Event.Status, u.View) {
					return
				}
			}
		}
	}
}

// open writes what a new connection needs: the missed events after its
// since, or the state. It returns the seq the client is now at and whether
// the game is over.
func (s *session) open(sub *table.Subscription) (last int64, over bool, ok bool) {
	st := statusOf(sub.View)
	over = terminal(st)
	if sub.Resumed && len(sub.Missed) <= s.h.cfg.MaxResume {
		for i, ev := range sub.Missed {
			var view any
			if i == len(sub.Missed)-1 {
				view = sub.View // the view at sub.Seq, which is this event's
			}
			if !s.writeEvent(ev, view) {
				return 0, false, false
			}
		}
		if n := len(sub.Missed); n > 0 && over && terminal(sub.Missed[n-1].Status) {
			if !s.writeOver(st, sub.View) {
				return 0, false, false
			}
		}
		return sub.Seq, over, true
	}
	return sub.Seq, over, s.writeJSON("state", stateMsg{Type: "state", Seq: sub.Seq, Game: sub.View})
}

// resubscribe follows the game after the table dropped the subscription:
// a slow client is disconnected (1013), a stopped or reloaded table is
// subscribed to again from the last seq sent, and when that fails the
// socket closes with the error's close code (1012 when the server stops).
func (s *session) resubscribe(old *table.Subscription, last int64) (*table.Subscription, error) {
	err := old.Err()
	if errors.Is(err, table.ErrSlow) {
		s.slow()
		return nil, err
	}
	if s.ctx.Err() != nil {
		return nil, s.ctx.Err()
	}
	if errors.Is(err, table.ErrMoved) {
		// The game moved to another node: the client reconnects and the
		// routing takes it there.
		s.closeAsync(CloseRestart, "the game moved to another node; reconnect")
		return nil, err
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.h.cfg.ActionTimeout)
	defer cancel()
	for {
		t, err := s.h.tables.Get(ctx, s.game)
		if err == nil {
			var sub *table.Subscription
			sub, err = t.Subscribe(ctx, s.viewer, last)
			if errors.Is(err, table.ErrStopped) {
				continue
			}
			if err == nil {
				return sub, nil
			}
		}
		code := table.AsError(err).Code.CloseCode()
		if errors.Is(err, table.ErrClosed) || table.AsError(err).Code == table.Unavailable {
			code = CloseRestart
		}
		s.closeAsync(code, "the game cannot be followed; reconnect")
		return nil, err
	}
}

// resume writes what a client at seq last missed while the session
// resubscribed.
func (s *session) resume(sub *table.Subscription, last int64, over bool) (int64, bool, bool) {
	if !sub.Resumed || len(sub.Missed) > s.h.cfg.MaxResume {
		ok := s.writeJSON("state", stateMsg{Type: "state", Seq: sub.Seq, Game: sub.View})
		return sub.Seq, over || terminal(statusOf(sub.View)), ok
	}
	for i, ev := range sub.Missed {
		var view any
		if i == len(sub.Missed)-1 {
			view = sub.View
		}
		if !s.writeEvent(ev, view) {
			return 0, false, false
		}
		if !over && terminal(ev.Status) {
			over = true
			if !s.writeOver(ev.Status, sub.View) {
				return 0, false, false
			}
		}
	}
	return sub.Seq, over, true
}

func (s *session) writeEvent(ev table.Event, view any) bool {
	return s.writeJSON("event", eventMsg{Type: "event", Seq: ev.Seq, Seat: ev.Seat,
		Action: ev.Action, Status: ev.Status, At: ev.At, Game: view})
}

// writeOver writes {"type": "over", "result"}: the race's result from its
// view, or for a solo game {"status", "score", "moves"}.
func (s *session) writeOver(status string, view any) bool {
	var v struct {
		Result json.RawMessage `json:"result"`
		Score  json.RawMessage `json:"score"`
		Moves  json.RawMessage `json:"moves"`
	}
	if b, err := json.Marshal(view); err == nil {
		json.Unmarshal(b, &v)
	}
	res := v.Result
	if len(res) == 0 || string(res) == "null" {
		r := map[string]any{"status": status}
		if len(v.Score) > 0 {
			r["score"] = v.Score
		}
		if len(v.Moves) > 0 {
			r["moves"] = v.Moves
		}
		res, _ = json.Marshal(r)
	}
	return s.writeJSON("over", overMsg{Type: "over", Result: res})
}

// statusOf reads the status of a view.
func statusOf(view any) string {
	var v struct {
		Status string `json:"status"`
	}
	if b, err := json.Marshal(view); err == nil {
		json.Unmarshal(b, &v)
	}
	return v.Status
}

// terminal reports whether a game status ends the game.
func terminal(status string) bool {
	return status != "" && status != "playing" && status != "waiting"
}

func (s *session) writeJSON(typ string, v any) bool {
	b, err := json.Marshal(v)
	if err != nil {
		s.h.log.Error("ws: encode", "type", typ, "err", err)
		s.closeAsync(int(websocket.StatusInternalError), "internal error")
		return false
	}
	return s.write(outMsg{typ: typ, body: b})
}
