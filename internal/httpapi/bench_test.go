package httpapi

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/klondike"
	"dsol/internal/store"
)

// BenchmarkRESTActions measures accepted actions per second through the
// whole REST path: HTTP, auth, the table goroutine, the group commit and
// the store, with a commit window of 0 (write at once, batching only what
// queued meanwhile) and of 2ms (dsol serve's default). "serial" is one client
// playing one game; "parallel" is 8 clients per CPU, each on its own game, so
// the committer batches the actions of many games.
//
//	go test -run '^$' -bench RESTActions -benchtime 3s ./internal/httpapi
func BenchmarkRESTActions(b *testing.B) {
	apitest.ForEachStore(b, func(b *testing.B, open func(testing.TB) store.Store) {
		st := open(b)
		for _, w := range []time.Duration{0, 2 * time.Millisecond} {
			b.Run(fmt.Sprintf("window=%v/serial", w), func(b *testing.B) { benchActions(b, st, w, 1) })
			b.Run(fmt.Sprintf("window=%v/parallel", w), func(b *testing.B) { benchActions(b, st, w, 8) })
		}
	})
}

func benchActions(b *testing.B, st store.Store, window time.Duration, parallelism int) {
	ts := mustServerWindow(b, st, window)
	tr := ts.Client().Transport.(*http.Transport)
	tr.MaxIdleConnsPerHost = 256
	b.SetParallelism(parallelism)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		c := ts.mustPlayer(b)
		const code = "DS1-D1N-AAAAAAB"
		id := c.mustGame(b, code).ID
		g := mustSolo(b, code)
		url := ts.URL + "/api/v1/games/" + id + "/actions"
		draw := []byte(`{"action":{"type":"draw"}}`)
		recycle := []byte(`{"action":{"type":"recycle"}}`)
		for pb.Next() {
			body, a := draw, klondike.Simple(klondike.Draw)
			if g.Board().NStock == 0 {
				body, a = recycle, klondike.Simple(klondike.Recycle)
			}
			if _, err := g.Apply(a); err != nil {
				panic(err)
			}
			req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+c.token)
			res, err := ts.Client().Do(req)
			if err != nil {
				panic(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				panic(fmt.Sprintf("status %d", res.StatusCode))
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "actions/s")
}

// BenchmarkCreateGame measures POST /api/v1/games on a fresh database, the
// first start of a new install, with and without "winnable" (one client, one
// request at a time, each player's games adding up as it goes): the time per
// request, and its p50 and p99.
//
//	go test -run '^$' -bench CreateGame -benchtime 2000x ./internal/httpapi
func BenchmarkCreateGame(b *testing.B) {
	apitest.ForEachStore(b, func(b *testing.B, open func(testing.TB) store.Store) {
		ts := mustServer(b, open(b))
		c := ts.mustPlayer(b)
		for _, body := range []string{`{"draw":1,"scoring":"normal"}`, `{"draw":1,"scoring":"normal","winnable":true}`,
			`{"draw":3,"scoring":"normal","winnable":true}`} {
			b.Run(body, func(b *testing.B) {
				times := make([]time.Duration, 0, b.N)
				for b.Loop() {
					start := time.Now()
					if status, raw := c.Do(b, "POST", "/api/v1/games", body); status != 201 {
						b.Fatalf("%d: %s", status, raw)
					}
					times = append(times, time.Since(start))
				}
				slices.Sort(times)
				at := func(q float64) float64 {
					return float64(times[min(len(times)-1, int(q*float64(len(times))))]) / float64(time.Millisecond)
				}
				b.ReportMetric(at(0.5), "p50-ms")
				b.ReportMetric(at(0.99), "p99-ms")
			})
		}
	})
}
