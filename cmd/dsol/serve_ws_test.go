package main

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// TestServeWebSocket checks that dsol serve mounts the WebSocket route, acks
// an action after it is stored, and closes sockets with 1012 on shutdown.
func TestServeWebSocket(t *testing.T) {
	s := mustServe(t, map[string]string{"DATABASE_URL": filepath.Join(t.TempDir(), "w.db")})
	var p struct{ Token string }
	s.call(t, "POST", "/api/v1/players", "", `{}`, 201, &p)
	var g struct{ ID string }
	s.call(t, "POST", "/api/v1/games", p.Token, `{"code":"DS1-D1N-AAAAAAB"}`, 201, &g)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := s.mustDial(ctx, t, "/api/v1/games/"+g.ID+"/ws", p.Token)
	var first struct {
		Type string
		Seq  int64
	}
	if err := wsjson.Read(ctx, c, &first); err != nil || first.Type != "state" || first.Seq != 0 {
		t.Fatalf("first message %+v, %v; want the state at seq 0", first, err)
	}
	if err := wsjson.Write(ctx, c, map[string]any{"type": "action", "id": "a1", "action": map[string]string{"type": "draw"}}); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int64{}
	for len(seen) < 2 {
		var m struct {
			Type string
			ID   string
			Seq  int64
		}
		if err := wsjson.Read(ctx, c, &m); err != nil {
			t.Fatalf("read: %v", err)
		}
		if m.Type == "ack" && m.ID != "a1" {
			t.Fatalf("ack for %q", m.ID)
		}
		seen[m.Type] = m.Seq
	}
	if seen["ack"] != 1 || seen["event"] != 1 {
		t.Fatalf("got %v, want ack and event at seq 1", seen)
	}

	s.stop(t)
	mustRestartClose(ctx, t, c)
}

// mustDial opens a WebSocket on the served path with a player's token.
func (s *server) mustDial(ctx context.Context, tb testing.TB, path, token string) *websocket.Conn {
	tb.Helper()
	url := "ws" + strings.TrimPrefix(s.base, "http") + path
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": {"Bearer " + token}},
	})
	if err != nil {
		tb.Fatalf("dial %s: %v\n%s", path, err, s.logs)
	}
	tb.Cleanup(func() { c.CloseNow() })
	return c
}

// mustRestartClose checks that the server closed c with 1012 (service restart).
func mustRestartClose(ctx context.Context, tb testing.TB, c *websocket.Conn) {
	tb.Helper()
	var m map[string]any
	err := wsjson.Read(ctx, c, &m)
	if got := websocket.CloseStatus(err); got != websocket.StatusServiceRestart {
		tb.Fatalf("after shutdown: %v (close status %d), want 1012", err, got)
	}
}
