package ws

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestSmallBuffersKeepEarlyBytes: a client that sends its first frames in
// the same write as the upgrade request (so that the HTTP server has them
// buffered at the hijack) gets every one of them read, in order, through
// the small buffers; a frame larger than both buffers goes through whole.
func TestSmallBuffersKeepEarlyBytes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(smallBuffers{w}, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		for {
			typ, b, err := c.Read(ctx)
			if err != nil {
				return
			}
			if err := c.Write(ctx, typ, b); err != nil {
				return
			}
		}
	}))
	defer srv.Close()

	big := strings.Repeat("x", 3*writeBufferSize+7)
	msgs := []string{"first", "second", big, "last"}
	var early bytes.Buffer
	early.WriteString("GET / HTTP/1.1\r\nHost: " + srv.Listener.Addr().String() + "\r\n" +
		"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
	for _, m := range msgs[:2] { // two frames right behind the request
		early.Write(clientFrame([]byte(m)))
	}
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := conn.Write(early.Bytes()); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade answered %s", res.Status)
	}
	for _, m := range msgs[2:] { // and two after the answer
		if _, err := conn.Write(clientFrame([]byte(m))); err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range msgs {
		got, err := serverFrame(br)
		if err != nil {
			t.Fatalf("echo %d: %v", i+1, err)
		}
		if string(got) != want {
			t.Fatalf("echo %d: %d bytes %.20q…, want %d bytes %.20q…", i+1, len(got), got, len(want), want)
		}
	}
}

// clientFrame is a masked text frame of p (a client's).
func clientFrame(p []byte) []byte {
	key := [4]byte{1, 2, 3, 4}
	b := []byte{0x81}
	switch n := len(p); {
	case n < 126:
		b = append(b, 0x80|byte(n))
	default:
		b = append(b, 0x80|126, byte(n>>8), byte(n))
	}
	b = append(b, key[:]...)
	for i, c := range p {
		b = append(b, c^key[i%4])
	}
	return b
}

// serverFrame reads one unmasked frame (a server's) and returns its payload.
func serverFrame(r *bufio.Reader) ([]byte, error) {
	var h [2]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, err
	}
	n := int(h[1] & 0x7f)
	if n == 126 {
		var l [2]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			return nil, err
		}
		n = int(l[0])<<8 | int(l[1])
	}
	p := make([]byte, n)
	_, err := io.ReadFull(r, p)
	return p, err
}
