package load

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// TestActionFrame: the frame is the protocol's action message, as JSON.
func TestActionFrame(t *testing.T) {
	got := actionFrame("R7", []byte(`{"type":"move","from":"w","to":"f","n":1}`))
	want := `{"type":"action","id":"R7","action":{"type":"move","from":"w","to":"f","n":1}}`
	if string(got) != want || !json.Valid(got) {
		t.Fatalf("%s, want %s", got, want)
	}
}

// TestSocketURL: the game's socket on the server's scheme, with the ask for
// protocol 2 or without.
func TestSocketURL(t *testing.T) {
	for _, tc := range []struct {
		base string
		v2   bool
		want string
	}{
		{"http://127.0.0.1:8080", false, "ws://127.0.0.1:8080/api/v1/games/g1/ws"},
		{"http://127.0.0.1:8080", true, "ws://127.0.0.1:8080/api/v1/games/g1/ws?v=2"},
		{"https://dsol.example", true, "wss://dsol.example/api/v1/games/g1/ws?v=2"},
	} {
		if got := socketURL(tc.base, "g1", tc.v2); got != tc.want {
			t.Errorf("socketURL(%s, %v) = %s, want %s", tc.base, tc.v2, got, tc.want)
		}
	}
}

// TestRetry counts each error by its code and tries again after the pause,
// never once the run is over.
func TestRetry(t *testing.T) {
	errs := map[string]int{}
	start := time.Now()
	if !retry(context.Background(), errs, &apiError{"illegal_move", "no"}) || errs["illegal_move"] != 1 {
		t.Fatalf("an error: %v", errs)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("tried again after %v, want 100ms", d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if retry(ctx, errs, &apiError{"rate_limited", "slow down"}) || errs["rate_limited"] != 1 {
		t.Fatalf("rate limited as the run ends: %v", errs)
	}
	if retry(ctx, errs, errors.New("dial tcp: refused")) || errs["transport"] != 0 {
		t.Fatalf("after the run: %v, want nothing counted", errs)
	}
	n := 0
	ok := persist(context.Background(), errs, func(context.Context) error {
		if n++; n < 3 {
			return &apiError{"transport", "reset"}
		}
		return nil
	})
	if !ok || n != 3 || errs["transport"] != 2 {
		t.Fatalf("persist: %v after %d calls, errors %v", ok, n, errs)
	}
}

// fakePlayer is ready when ready says so, and records what it plays with.
type fakePlayer struct {
	ready  bool
	played atomic.Bool
	stop   context.Context
}

func (p *fakePlayer) setup(context.Context) bool { return p.ready }

func (p *fakePlayer) play(stop, _ context.Context) {
	p.stop = stop
	p.played.Store(true)
}

// TestSetUp: every player sets up, the ready ones wait for play and play
// with its contexts, the others never play.
func TestSetUp(t *testing.T) {
	players := []*fakePlayer{{ready: true}, {ready: false}, {ready: true}}
	team, ready := setUp(context.Background(), players)
	if ready != 2 {
		t.Fatalf("%d ready, want 2", ready)
	}
	time.Sleep(10 * time.Millisecond)
	for i, p := range players {
		if p.played.Load() {
			t.Fatalf("player %d played before the start", i)
		}
	}
	stop, cancel := context.WithCancel(context.Background())
	defer cancel()
	team.play(stop, context.Background())
	team.wait()
	for i, p := range players {
		if p.played.Load() != p.ready || p.ready && p.stop != stop {
			t.Errorf("player %d (ready %v): played %v", i, p.ready, p.played.Load())
		}
	}
}
