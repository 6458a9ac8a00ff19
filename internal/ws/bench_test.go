package ws_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"testing"

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
	e := mustEnv(b, st, func(c *ws.Config) { c.MessageRate, c.MessageBurst = 1e12, 1<<30 },
		func(c *service.Config) { c.Committer = com })
	b.Cleanup(func() { e.stop(); com.Close() })
	for _, v := range []string{"1", "2"} {
		b.Run("v="+v, func(b *testing.B) {
			p := e.mustPlayer(b)
			g := p.mustSolo(b)
			ctx := context.Background()
			c, _, err := p.Handshake(ctx, "/api/v1/games/"+g+"/ws?v="+v, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer c.CloseNow()
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
			stock, waste := st.Game.Stock, len(st.Game.Waste)
			ack := []byte(`"type":"ack"`)
			frame := make([]byte, 0, 96)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				action := `{"type":"draw"}`
				if stock == 0 {
					action = `{"type":"recycle"}`
					stock, waste = waste, 0
				} else {
					stock, waste = stock-1, waste+1
				}
				frame = append(frame[:0], `{"type":"action","id":"b`...)
				frame = strconv.AppendInt(frame, int64(i), 10)
				frame = append(frame, `","action":`...)
				frame = append(append(frame, action...), '}')
				if err := c.Write(ctx, websocket.MessageText, frame); err != nil {
					b.Fatal(err)
				}
				for {
					_, m, err := c.Read(ctx)
					if err != nil {
						b.Fatal(err)
					}
					if bytes.Contains(m, ack) {
						break
					}
					if bytes.Contains(m, []byte(`"reject"`)) {
						b.Fatalf("%s", m)
					}
				}
			}
		})
	}
}
