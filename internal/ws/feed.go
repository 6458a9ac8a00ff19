package ws

import (
	"encoding/json"
	"net/http"

	"github.com/coder/websocket"

	"dsol/internal/game"
	"dsol/internal/protocol"
)

// feed is what a read-only socket forwards: encoded messages of one type
// ("lobby", or the match queue's), until C is closed (then the socket
// closes normally) or done is (then it closes with 1012).
type feed struct {
	typ   string // the messages' type, for the metrics
	C     <-chan []byte
	close func()
}

// feedHandler serves a read-only socket: the client may send
// {"type": "ping"} (answered with {"type": "pong"}) and nothing else. The
// lobby socket, the match socket and the arena socket are three.
type feedHandler struct {
	front[*feedSession]
	name  string                                          // "lobby", "match" or "arena", for the refusals
	open  func(r *http.Request, pid string) (feed, error) // the player's feed; an error is refused before the upgrade
	done  <-chan struct{}                                 // closed: every socket closes with 1012
	gauge func(delta int)                                 // open sockets, or nil
}

// Open returns the number of open sockets.
func (h *feedHandler) Open() int { return h.socks.count() }

// ServeHTTP upgrades the socket. Refusals come before the upgrade, with
// the JSON error of the REST API: 401 no player, 403 a foreign Origin, 429
// too many sockets of this kind for this player, 503 shutting down.
func (h *feedHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	pid, err := h.player(r)
	if err != nil {
		h.error(w, r, err)
		return
	}
	if err := checkOrigin(r, h.cfg.OriginPatterns); err != nil {
		h.error(w, r, game.Errorf(game.Forbidden, "%v", err))
		return
	}
	if err := h.socks.admit(pid); err != nil {
		h.error(w, r, err)
		return
	}
	defer h.socks.release(pid)
	f, err := h.open(r, pid)
	if err != nil {
		h.error(w, r, err)
		return
	}
	defer f.close()
	c, err := h.accept(w, r)
	if err != nil { // Accept has answered
		return
	}
	// From here on r.Context() is not used: the connection is hijacked.
	s := &feedSession{connection: newConnection(c, &h.cfg, h.metrics, h.clock), h: h, ready: make(chan struct{}, 1)}
	s.out.notify = func() {
		select {
		case s.ready <- struct{}{}:
		default:
		}
	}
	s.dropEnded = true
	if !h.socks.track(s, pid, h.tokenOf(r)) {
		c.Close(websocket.StatusCode(protocol.CloseRestart), "server restart")
		return
	}
	if h.gauge != nil {
		h.gauge(1)
	}
	defer func() {
		h.socks.untrack(s)
		if h.gauge != nil {
			h.gauge(-1)
		}
	}()
	s.connection.run(func() { s.writer(f) }, s.readLoop)
}

// feedSession is one open read-only socket: the read loop (the handler's
// goroutine) answers pings, the writer sends the feed's messages and the
// answers, the heartbeat pings.
type feedSession struct {
	*connection
	h     *feedHandler
	ready chan struct{} // capacity 1: the outbox has answers
}

// readLoop answers pings; anything else is a refused frame, and a client
// that keeps sending them is closed with 1008. A text frame that is not
// UTF-8 closes the socket with 1007.
func (s *feedSession) readLoop() {
	for {
		typ, data, err := s.read()
		if err != nil {
			return
		}
		if s.ending || s.ctx.Err() != nil {
			continue
		}
		var m struct {
			Type string `json:"type"`
		}
		ferr := protocol.CheckFrame(typ == websocket.MessageText, data)
		switch {
		case ferr == protocol.ErrNotUTF8:
			s.h.metrics.ObserveWSIn("invalid")
			s.ending = true
			s.send(outMsg{typ: "close", closeCode: protocol.CloseInvalidData, body: []byte(ferr.Msg)})
		case !s.allow():
			s.refuse(game.Errorf(game.RateLimited, "too many messages; slow down"))
		case ferr != nil || json.Unmarshal(data, &m) != nil || m.Type != "ping":
			s.refuse(game.Errorf(game.BadRequest, "the %s socket only takes {\"type\": \"ping\"}", s.h.name))
		default:
			s.h.metrics.ObserveWSIn("ping")
			s.send(outMsg{typ: "pong", body: []byte(`{"type":"pong"}`)})
		}
	}
}

// refuse rejects a frame, or closes the socket when such frames keep coming.
func (s *feedSession) refuse(err *game.Error) {
	s.h.metrics.ObserveWSIn("invalid")
	if !s.strike() {
		s.ending = true
		s.send(outMsg{typ: "close", closeCode: protocol.ClosePolicy, body: []byte("too many bad messages")})
		return
	}
	b, _ := json.Marshal(rejectMsg{Type: "reject", ID: "", Error: errorJSON{Code: string(err.Code), Message: err.Msg}})
	s.send(outMsg{typ: "reject", code: string(err.Code), body: b})
}

// send queues an answer; a full queue means a client that does not read.
func (s *feedSession) send(m outMsg) {
	if !s.out.put(m) {
		s.ending = true
		s.slow()
	}
}

// writer writes the feed's messages and the answers, each within the write
// timeout, until the session ends; the feed's end closes the socket
// normally, the handler's done with 1012.
func (s *feedSession) writer(f feed) {
	beat := s.heartbeat()
	defer beat.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-beat.C:
			s.beat()
		case <-s.h.done:
			s.closeAsync(protocol.CloseRestart, "server restart")
			return
		case b, ok := <-f.C:
			if !ok {
				s.closeAsync(int(websocket.StatusNormalClosure), "")
				return
			}
			if !s.write(outMsg{typ: f.typ, body: b}) {
				return
			}
		case <-s.ready:
			for _, m := range s.out.take(nil) {
				if m.typ == "close" {
					s.closeAsync(m.closeCode, string(m.body))
					return
				}
				if !s.write(m) {
					return
				}
			}
		}
	}
}
