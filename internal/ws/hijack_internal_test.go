package ws

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
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

	big := strings.Repeat("x", 3*readBufferSize+7)
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

// recordConn is a net.Conn that records each write.
type recordConn struct {
	net.Conn
	writes [][]byte
}

func (c *recordConn) Write(p []byte) (int, error) {
	c.writes = append(c.writes, bytes.Clone(p))
	return len(p), nil
}

// testFrame is an unmasked server frame with a payload of n bytes.
func testFrame(rng *rand.Rand, n int) []byte {
	var f []byte
	switch {
	case n < 126:
		f = []byte{0x81, byte(n)}
	case n < 1<<16:
		f = []byte{0x81, 126, byte(n >> 8), byte(n)}
	default:
		f = []byte{0x81, 127, 0, 0, 0, 0, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}
	}
	for range n {
		f = append(f, byte('a'+rng.IntN(26)))
	}
	return f
}

// TestFrameConnOneWritePerFrame: however the bytes of a run of frames are
// cut into writes (the socket library's buffer cuts them as it fills),
// the connection under a frameConn gets each frame whole, in one write,
// as soon as its last byte came; between frames it keeps a few bytes.
func TestFrameConnOneWritePerFrame(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sizes := []int{0, 1, 12, 14, 125, 126, 200, 1000, 65535, 65536, 70000}
	for round := range 200 {
		rc := &recordConn{}
		fc := newFrameConn(rc)
		var frames [][]byte
		var all []byte
		for range 1 + rng.IntN(6) {
			f := testFrame(rng, sizes[rng.IntN(len(sizes))])
			frames = append(frames, f)
			all = append(all, f...)
		}
		for rest := all; len(rest) > 0; {
			k := 1 + rng.IntN(min(len(rest), 300))
			if rng.IntN(4) == 0 {
				k = len(rest) // a frame's tail with the next frames
			}
			if n, err := fc.Write(rest[:k]); n != k || err != nil {
				t.Fatalf("round %d: Write %d bytes: %d %v", round, k, n, err)
			}
			rest = rest[k:]
		}
		if len(rc.writes) != len(frames) {
			t.Fatalf("round %d: %d frames came in %d writes", round, len(frames), len(rc.writes))
		}
		for i, w := range rc.writes {
			if !bytes.Equal(w, frames[i]) {
				t.Fatalf("round %d: write %d is not frame %d (%d bytes, want %d)", round, i, i, len(w), len(frames[i]))
			}
		}
		if cap(fc.pend) > keepPend || fc.total != 0 {
			t.Fatalf("round %d: %d bytes of room kept, %d of a frame pending", round, cap(fc.pend), fc.total)
		}
	}
}

// countConn is a server connection that records each write.
type countConn struct {
	net.Conn
	mu     sync.Mutex
	writes [][]byte
}

func (c *countConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.writes = append(c.writes, bytes.Clone(p))
	c.mu.Unlock()
	return c.Conn.Write(p)
}

func (c *countConn) written() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.writes)
}

// countListener hands out countConns.
type countListener struct{ net.Listener }

func (l countListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countConn{Conn: c}, nil
}

type connKey struct{}

// TestLibraryWritesEachFrameOnce holds the socket library of go.mod to what
// frameConn relies on: every byte of every frame it sends (messages of
// every length class, its ping, its pong, its close) passes through the
// write buffer handed over at the hijack, frame after frame, so that each
// frame reaches the connection in one write, whole. A version that wrote
// past that buffer (to the connection itself, or through a buffer of its
// own) would put a frame longer than 16 bytes on the wire in two writes or
// more, and fails here; one that buffered more itself would show in the
// idle socket's memory (TestIdleSocketCost).
func TestLibraryWritesEachFrameOnce(t *testing.T) {
	sizes := []int{0, 1, 12, 13, 125, 126, 1000, 4096, 16<<10 + 300, 65535, 65536, 70000}
	payload := func(n int) []byte { return bytes.Repeat([]byte{'a' + byte(n%26)}, n) }
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	type opening struct {
		conn    *countConn
		upgrade int // the writes of the 101 answer, before the socket library's
	}
	opened := make(chan opening, 1)
	serverPinged := make(chan struct{}) // the server's ping has its pong
	pinged := make(chan struct{})       // the client's ping has its pong
	served := make(chan error, 1)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(smallBuffers{w}, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
		if err != nil {
			served <- err
			return
		}
		defer c.CloseNow()
		cc := r.Context().Value(connKey{}).(*countConn)
		opened <- opening{cc, len(cc.written())}
		ctx := c.CloseRead(ctx) // reads the pongs and the pings
		for _, n := range sizes {
			if err := c.Write(ctx, websocket.MessageText, payload(n)); err != nil {
				served <- err
				return
			}
		}
		if err := c.Ping(ctx); err != nil {
			served <- err
			return
		}
		close(serverPinged)
		<-pinged
		served <- c.Close(websocket.StatusNormalClosure, "bye")
	}))
	srv.Config.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		return context.WithValue(ctx, connKey{}, c)
	}
	srv.Listener = countListener{srv.Listener}
	srv.Start()
	defer srv.Close()

	c, _, err := websocket.Dial(ctx, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 20)
	var o opening
	select {
	case o = <-opened:
	case err := <-served:
		t.Fatalf("server: %v", err)
	}
	for i, n := range sizes {
		typ, b, err := c.Read(ctx)
		if err != nil || typ != websocket.MessageText || !bytes.Equal(b, payload(n)) {
			t.Fatalf("message %d: %v %d bytes, %v; want %d bytes", i, typ, len(b), err, n)
		}
	}
	read := make(chan error, 1)
	go func() { _, _, err := c.Read(ctx); read <- err }() // answers the server's ping, then reads its close
	select {
	case <-serverPinged:
	case err := <-served:
		t.Fatalf("server: %v", err)
	}
	if err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	close(pinged)
	if err := <-served; err != nil {
		t.Fatalf("server: %v", err)
	}
	if err := <-read; websocket.CloseStatus(err) != websocket.StatusNormalClosure {
		t.Fatalf("client read %v, want the close", err)
	}

	type frame struct {
		op byte
		n  int
	}
	var want []frame
	for _, n := range sizes {
		want = append(want, frame{0x81, n}) // text, final
	}
	want = append(want, frame{0x89, 1}, frame{0x8a, 1}, frame{0x88, 5}) // its ping "1", the pong of ours, the close: 1000 "bye"
	writes := o.conn.written()[o.upgrade:]
	if len(writes) != len(want) {
		t.Fatalf("%d frames went out in %d writes, want one write each", len(want), len(writes))
	}
	for i, w := range writes {
		total, ok := frameLength(nil, w)
		if !ok || total != len(w) {
			t.Fatalf("write %d (%d bytes) is not one whole frame (%d, %v)", i, len(w), total, ok)
		}
		head := total - want[i].n
		if w[0] != want[i].op || head < 2 || head > 10 {
			t.Fatalf("write %d: opcode %#x and %d bytes of payload, want %#x and %d", i, w[0], total-head, want[i].op, want[i].n)
		}
		if want[i].op == 0x81 && !bytes.Equal(w[head:], payload(want[i].n)) {
			t.Fatalf("write %d: the payload is not message %d's", i, i)
		}
	}
}
