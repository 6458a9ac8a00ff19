package ws_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/apitest"
	"dsol/internal/service"
	"dsol/internal/store"
	"dsol/internal/ws"
)

// memLog keeps the appended actions in memory: the benchmark measures the
// server's path, not the disk.
type memLog struct {
	store.Store
	mu  sync.Mutex
	log []store.Action
}

func (m *memLog) AppendActions(_ context.Context, as []store.Action) error {
	m.mu.Lock()
	m.log = append(m.log, as...)
	m.mu.Unlock()
	return nil
}

// noRateLimit lifts the limit of client frames, which a benchmark's client
// would run into (the test clock stands still).
func noRateLimit(c *ws.Config) { c.MessageRate, c.MessageBurst = 1e12, 1<<30 }

// BenchmarkSocketAction is the server's path of one action, from the frame
// the client writes to the frames it reads (its event and its ack), with the
// action log in memory and a group commit without a window: one client,
// one solo game, closed loop (draw while the stock has cards, else
// recycle). Client and server run in the benchmark's process, so time and
// allocations are both sides'.
//
//	go test -run '^$' -bench SocketAction -benchmem ./internal/ws
func BenchmarkSocketAction(b *testing.B) {
	st := &memLog{Store: apitest.SQLite(b)}
	com := store.NewCommitter(st, 0, 0, nil)
	e := mustEnv(b, st, noRateLimit, func(c *service.Config) { c.Committer = com })
	b.Cleanup(func() { e.stop(); com.Close() })
	for _, v := range []string{"1", "2"} {
		b.Run("v="+v, func(b *testing.B) {
			s := mustSoloSocket(b, e, v)
			defer s.c.CloseNow()
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				s.act(b, i)
			}
		})
	}
}

// BenchmarkActionLatency is the time from an action's frame to its ack on
// a real store, SQLite on disk with the commit window of the test server
// (1 ms, dsol serve's default): one client, one solo game, closed loop, as
// BenchmarkSocketAction. Besides the mean (ns/op) it reports the median
// and the 99th percentile of the round trips.
//
//	go test -run '^$' -bench ActionLatency -benchtime 400x ./internal/ws
func BenchmarkActionLatency(b *testing.B) {
	e := mustEnv(b, apitest.SQLite(b), noRateLimit)
	for _, v := range []string{"1", "2"} {
		b.Run("v="+v, func(b *testing.B) {
			s := mustSoloSocket(b, e, v)
			defer s.c.CloseNow()
			took := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				s.act(b, i)
				took = append(took, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2]), "p50-ns")
			b.ReportMetric(float64(took[len(took)*99/100]), "p99-ns")
		})
	}
}

// soloSocket is a benchmark's client on a solo game of its own: the socket,
// and the stock and waste it counts to pick a legal action.
type soloSocket struct {
	c            *websocket.Conn
	stock, waste int
	frame        []byte
}

// mustSoloSocket opens a socket of protocol v on a new solo game of a new
// player and reads its state.
func mustSoloSocket(b *testing.B, e *env, v string) *soloSocket {
	b.Helper()
	p := e.mustPlayer(b)
	g := p.mustSolo(b)
	ctx := context.Background()
	c, _, err := p.Handshake(ctx, "/api/v1/games/"+g+"/ws?v="+v, nil)
	if err != nil {
		b.Fatal(err)
	}
	_, first, err := c.Read(ctx)
	if err != nil {
		b.Fatal(err)
	}
	var st struct {
		Game struct {
			Stock int
			Waste []string
		}
	}
	if err := json.Unmarshal(first, &st); err != nil {
		b.Fatal(err)
	}
	return &soloSocket{c: c, stock: st.Game.Stock, waste: len(st.Game.Waste), frame: make([]byte, 0, 96)}
}

var ackType = []byte(`"type":"ack"`)

// act sends action i (a draw while the stock has cards, else a recycle)
// and reads up to its ack.
func (s *soloSocket) act(b *testing.B, i int) {
	action := `{"type":"draw"}`
	if s.stock == 0 {
		action = `{"type":"recycle"}`
		s.stock, s.waste = s.waste, 0
	} else {
		s.stock, s.waste = s.stock-1, s.waste+1
	}
	s.frame = append(s.frame[:0], `{"type":"action","id":"b`...)
	s.frame = strconv.AppendInt(s.frame, int64(i), 10)
	s.frame = append(s.frame, `","action":`...)
	s.frame = append(append(s.frame, action...), '}')
	ctx := context.Background()
	if err := s.c.Write(ctx, websocket.MessageText, s.frame); err != nil {
		b.Fatal(err)
	}
	for {
		_, m, err := s.c.Read(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if bytes.Contains(m, ackType) {
			return
		}
		if bytes.Contains(m, []byte(`"reject"`)) {
			b.Fatalf("%s", m)
		}
	}
}
