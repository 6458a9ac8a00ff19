package ws_test

import (
	"context"
	"testing"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/apitest"
)

// TestStrictFrames: a key given twice (at the top or nested), an empty client
// id and an unpaired surrogate escape are each rejected with bad_request, and
// apply nothing; the socket goes on.
func TestStrictFrames(t *testing.T) {
	e := mustEnv(t, apitest.SQLite(t), nil)
	p := e.mustPlayer(t)
	c := p.mustDial(t, p.mustSolo(t), "")
	c.mustReadType("state")
	frames := []string{
		`{"type":"action","id":"d1","id":"d2","action":{"type":"draw"}}`,
		`{"type":"action","id":"d3","action":{"type":"draw","type":"undo"}}`,
		`{"type":"action","id":"d4","action":{"type":"draw"},"seq":0,"seq":0}`,
		`{"type":"action","action":{"type":"draw","id":""}}`,
		`{"type":"action","id":"","action":{"type":"draw"}}`,
		`{"type":"action","id":"d5","action":{"type":"draw","id":"\ud800"}}`,
		`{"type":"action","id":"d6","action":{"type":"draw"},"pad":{"a":[{"b":1,"b":2}]}}`,
		`{"type":"ping","type":"ping"}`,
	}
	for _, f := range frames {
		c.Send(f)
	}
	got := c.sync()
	if len(got) != len(frames) {
		t.Fatalf("%d answers to %d bad frames: %v", len(got), len(frames), got)
	}
	for i, m := range got {
		if m.Type != "reject" || m.Error.Code != "bad_request" {
			t.Errorf("%s: %s", frames[i], m.raw)
		}
	}
	c.Act("ok", `{"type":"draw"}`)
	collect(t, c, 0, 1, "ok")
}

// TestTextNotUTF8Closes: a text frame that is not UTF-8 closes a game socket
// and a lobby socket with 1007 and applies nothing; the same bytes in a
// binary frame are only rejected.
func TestTextNotUTF8Closes(t *testing.T) {
	e := mustLobbyEnv(t, apitest.SQLite(t), time.Hour)
	p := e.mustPlayer(t)
	g := p.mustSolo(t)
	bad := []byte("{\"type\":\"action\",\"id\":\"a\xff\",\"action\":{\"type\":\"draw\"}}")

	c := p.mustDial(t, g, "")
	c.mustReadType("state")
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := c.Conn.Write(ctx, websocket.MessageBinary, bad); err != nil {
		t.Fatal(err)
	}
	if m := c.mustReadType("reject"); m.Error.Code != "bad_request" {
		t.Fatalf("binary frame: %s", m.raw)
	}
	if err := c.Conn.Write(ctx, websocket.MessageText, bad); err != nil {
		t.Fatal(err)
	}
	if code, seen := c.mustClose(); code != websocket.StatusInvalidFramePayloadData || len(seen) != 0 {
		t.Fatalf("game socket: close %d after %v", code, seen)
	}
	var v struct{ Seq int64 }
	p.MustJSON(t, "GET", "/api/v1/games/"+g, "", 200, &v)
	if v.Seq != 0 {
		t.Fatalf("seq %d after a refused frame", v.Seq)
	}

	l := p.mustDialLobby(t)
	l.mustLobby()
	if err := l.Conn.Write(ctx, websocket.MessageText, []byte("{\"type\":\"ping\",\"x\":\"\xc3\"}")); err != nil {
		t.Fatal(err)
	}
	if code, seen := l.mustClose(); code != websocket.StatusInvalidFramePayloadData || len(seen) != 0 {
		t.Fatalf("lobby socket: close %d after %v", code, seen)
	}
}
