package client

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
	got := ActionFrame("R7", []byte(`{"type":"move","from":"w","to":"f","n":1}`))
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
		if got := SocketURL(tc.base, "g1", tc.v2); got != tc.want {
			t.Errorf("SocketURL(%s, %v) = %s, want %s", tc.base, tc.v2, got, tc.want)
		}
	}
}

// TestRetry counts each error by its code and tries again after the pause,
// never once the run is over.
func TestRetry(t *testing.T) {
	errs := map[string]int{}
	start := time.Now()
	if !Retry(context.Background(), errs, &Error{"illegal_move", "no"}) || errs["illegal_move"] != 1 {
		t.Fatalf("an error: %v", errs)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("tried again after %v, want 100ms", d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if Retry(ctx, errs, &Error{"rate_limited", "slow down"}) || errs["rate_limited"] != 1 {
		t.Fatalf("rate limited as the run ends: %v", errs)
	}
	if Retry(ctx, errs, errors.New("dial tcp: refused")) || errs["transport"] != 0 {
		t.Fatalf("after the run: %v, want nothing counted", errs)
	}
	n := 0
	ok := Persist(context.Background(), errs, func(context.Context) error {
		if n++; n < 3 {
			return &Error{"transport", "reset"}
		}
		return nil
	})
	if !ok || n != 3 || errs["transport"] != 2 {
		t.Fatalf("Persist: %v after %d calls, errors %v", ok, n, errs)
	}
}

// TestErrorList: counts in code order, or none.
func TestErrorList(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   map[string]int
		want string
	}{
		{"none", nil, "none"},
		{"one", map[string]int{"transport": 2}, "transport 2"},
		{"sorted", map[string]int{"transport": 1, "rate_limited": 3, "game_over": 1}, "game_over 1, rate_limited 3, transport 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ErrorList(tc.in); got != tc.want {
				t.Errorf("ErrorList = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestParallel: every index once, whether there are more workers than
// indexes or fewer.
func TestParallel(t *testing.T) {
	for _, tc := range []struct {
		name       string
		workers, n int
	}{{"fewer workers", 3, 50}, {"more workers", 16, 5}, {"nothing", 4, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			seen := make([]atomic.Int32, tc.n)
			Parallel(tc.workers, tc.n, func(i int) { seen[i].Add(1) })
			for i := range seen {
				if n := seen[i].Load(); n != 1 {
					t.Errorf("f(%d) ran %d times", i, n)
				}
			}
		})
	}
}
