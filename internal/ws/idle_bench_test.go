package ws_test

import (
	"bufio"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/ws"
)

// BenchmarkIdleSocket is what an idle game socket keeps alive on the
// server: b.N sockets of one player on one solo game, each opened by a bare
// TCP client that sends the upgrade and reads the answer (so that the
// client's side is a connection and nothing more), then the heap live after
// a collection and the goroutine stacks in use, per socket, against the same
// figures before the sockets were opened. The process is the server and
// the bare clients; the clients' share is a connection each. With
// sent=ping each client then sends one ping, so that the socket idles with
// what its read loop and its answers keep from a frame. Heap and stack
// together stay within idleSocketBound (TestIdleSocketCost checks it on
// every test run).
//
//	go test -run '^$' -bench IdleSocket -benchtime 2000x ./internal/ws
func BenchmarkIdleSocket(b *testing.B) {
	for _, tc := range []struct {
		name  string
		frame []byte
	}{{"sent=nothing", nil}, {"sent=ping", maskedText(`{"type":"ping"}`)}} {
		b.Run(tc.name, func(b *testing.B) {
			e := mustEnv(b, apitest.SQLite(b), func(c *ws.Config) { c.MaxSocketsPerPlayer = 1 << 20 })
			open := bareSockets(b, e, tc.frame)
			open() // the table is live and the first socket's one-time costs are paid
			time.Sleep(2 * ws.PumpLinger)
			before := liveMemory()
			b.ResetTimer()
			for range b.N {
				open()
			}
			b.StopTimer()
			time.Sleep(2 * ws.PumpLinger) // the answers are written and the writers' goroutines end
			after := liveMemory()
			if n := e.sockets.Open(); n != b.N+1 {
				b.Fatalf("%d sockets open, want %d", n, b.N+1)
			}
			b.ReportMetric(float64(after.heap-before.heap)/float64(b.N), "heap-B/socket")
			b.ReportMetric(float64(after.stack-before.stack)/float64(b.N), "stack-B/socket")
			b.ReportMetric(float64(after.goroutines-before.goroutines)/float64(b.N), "goroutines/socket")
			if cost := (after.heap - before.heap + after.stack - before.stack) / int64(b.N); b.N >= 100 && cost > idleSocketBound { // fewer: noise
				b.Fatalf("an idle socket keeps %d bytes of heap and stack, more than %d", cost, idleSocketBound)
			}
		})
	}
}

// maskedText is a client's text frame of payload (masked, as a client's
// must be; with the zero mask, which leaves it as it is).
func maskedText(payload string) []byte {
	if len(payload) > 125 {
		panic("maskedText: a payload of up to 125 bytes")
	}
	return append([]byte{0x81, 0x80 | byte(len(payload)), 0, 0, 0, 0}, payload...)
}

// idleSocketBound is the most an idle game socket may keep alive on the
// server, heap and stack: what BenchmarkIdleSocket measures.
const idleSocketBound = 24 << 10

// TestIdleSocketCost: an idle game socket keeps one goroutine (its read
// loop) once its opening messages are written, the writer running only
// while there is something to write, and at most idleSocketBound of heap
// and stack; in-process, after a collection, as BenchmarkIdleSocket
// measures it.
func TestIdleSocketCost(t *testing.T) {
	e := mustEnv(t, apitest.SQLite(t), func(c *ws.Config) { c.MaxSocketsPerPlayer = 1 << 10 })
	open := bareSockets(t, e, nil)
	for range 20 { // the table is live, and the one-time costs of the first sockets are paid
		open()
	}
	time.Sleep(2 * ws.PumpLinger)
	const n = 400
	before := liveMemory()
	for range n {
		open()
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		time.Sleep(2 * ws.PumpLinger) // the writers' goroutines end
		after := liveMemory()
		if got := after.goroutines - before.goroutines; got > n+n/10 {
			if time.Now().After(deadline) {
				t.Fatalf("%d goroutines for %d idle sockets, want about %d", got, n, n)
			}
			continue
		}
		cost := (after.heap - before.heap + after.stack - before.stack) / n
		t.Logf("%d bytes of heap and stack per idle socket", cost)
		if cost > idleSocketBound {
			t.Fatalf("an idle socket keeps %d bytes of heap and stack, more than %d", cost, idleSocketBound)
		}
		return
	}
}

// bareSockets returns a function that opens a game socket of one player on
// one solo game with a bare TCP client, which sends the upgrade, reads the
// answer and then sends frame, unless nil (so that the client's side is a
// connection and nothing more). The connections are closed at the end of
// the test.
func bareSockets(tb testing.TB, e *env, frame []byte) func() {
	p := e.mustPlayer(tb)
	g := p.mustSolo(tb)
	addr := strings.TrimPrefix(e.URL, "http://")
	req := "GET /api/v1/games/" + g + "/ws?v=2 HTTP/1.1\r\nHost: " + addr + "\r\n" +
		"Authorization: Bearer " + p.token + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
	var conns []net.Conn
	tb.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	return func() {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			tb.Fatal(err)
		}
		conns = append(conns, c)
		if _, err := c.Write([]byte(req)); err != nil {
			tb.Fatal(err)
		}
		res, err := http.ReadResponse(bufio.NewReaderSize(c, 256), nil)
		if err != nil {
			tb.Fatal(err)
		}
		if res.StatusCode != http.StatusSwitchingProtocols {
			tb.Fatalf("socket %d: %s", len(conns), res.Status)
		}
		if frame != nil {
			if _, err := c.Write(frame); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

type memory struct{ heap, stack, goroutines int64 }

// liveMemory collects twice (finalizers and what they free), then reads the
// live heap, the stacks in use and the goroutines.
func liveMemory() memory {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return memory{int64(m.HeapAlloc), int64(m.StackInuse), int64(runtime.NumGoroutine())}
}
