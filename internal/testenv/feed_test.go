package testenv

import (
	"context"
	"sync"
	"testing"
	"time"
)

// queue is the kind of queue a Feed reads: taken whole, calling back on a
// push and on its end.
type queue struct {
	mu    sync.Mutex
	q     []int
	ended bool
	ready func()
}

func (q *queue) onReady(f func()) { q.ready = f }

func (q *queue) take(dst []int) ([]int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	dst = append(dst, q.q...)
	q.q = q.q[:0]
	return dst, !q.ended
}

func (q *queue) push(v int, end bool) {
	q.mu.Lock()
	q.q = append(q.q, v)
	q.ended = end
	q.mu.Unlock()
	q.ready()
}

func TestFeed(t *testing.T) {
	q := &queue{}
	f := NewFeed(q.take, q.onReady)
	ctx := context.Background()
	go func() {
		for i := 1; i <= 100; i++ {
			if i%7 == 0 {
				time.Sleep(time.Millisecond) // the reader waits now and then
			}
			q.push(i, i == 100)
		}
	}()
	for want := 1; want <= 100; want++ {
		if v, ok := f.Recv(ctx); !ok || v != want {
			t.Fatalf("got %d %v, want %d", v, ok, want)
		}
	}
	if _, ok := f.Recv(ctx); ok {
		t.Fatal("Recv after the end")
	}
	if us := f.Take(); len(us) != 0 {
		t.Fatalf("Take after the end: %v", us)
	}

	q2 := &queue{}
	f2 := NewFeed(q2.take, q2.onReady)
	q2.push(1, false)
	q2.push(2, false)
	if v, _ := f2.Recv(ctx); v != 1 {
		t.Fatalf("first: %d", v)
	}
	q2.push(3, false)
	if us := f2.Take(); len(us) != 2 || us[0] != 2 || us[1] != 3 {
		t.Fatalf("Take: %v, want [2 3]", us)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, ok := f2.Recv(done); ok {
		t.Fatal("Recv with a done context")
	}
}
