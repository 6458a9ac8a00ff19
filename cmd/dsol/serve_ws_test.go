package main

import (
	"path/filepath"
	"testing"

	"github.com/coder/websocket"
)

// TestServeWebSocket checks that dsol serve mounts the WebSocket route, acks
// an action after it is stored, and closes sockets with 1012 on shutdown.
func TestServeWebSocket(t *testing.T) {
	s := mustServe(t, map[string]string{"DATABASE_URL": filepath.Join(t.TempDir(), "w.db")})
	var p struct{ Token string }
	s.call(t, "POST", "/api/v1/players", "", `{}`, 201, &p)
	var g struct{ ID string }
	s.call(t, "POST", "/api/v1/games", p.Token, `{"code":"DS1-D1N-AAAAAAB"}`, 201, &g)

	c := s.client(p.Token).Dial(t, "/api/v1/games/"+g.ID+"/ws", nil)
	var first struct {
		Type string
		Seq  int64
	}
	if c.ReadJSON(&first); first.Type != "state" || first.Seq != 0 {
		t.Fatalf("first message %+v; want the state at seq 0", first)
	}
	c.Act("a1", `{"type":"draw"}`)
	seen := map[string]int64{}
	for len(seen) < 2 {
		var m struct {
			Type string
			ID   string
			Seq  int64
		}
		c.ReadJSON(&m)
		if m.Type == "ack" && m.ID != "a1" {
			t.Fatalf("ack for %q", m.ID)
		}
		seen[m.Type] = m.Seq
	}
	if seen["ack"] != 1 || seen["event"] != 1 {
		t.Fatalf("got %v, want ack and event at seq 1", seen)
	}

	s.stop(t)
	c.MustClosed(websocket.StatusServiceRestart)
}
