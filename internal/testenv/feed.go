package testenv

import "context"

// Feed hands a test one update at a time, waiting for it, from a queue that
// is taken without blocking and calls back when it moves: a table
// subscription's Take and OnReady, which the socket's writer reads in bursts.
// One goroutine uses a Feed.
type Feed[T any] struct {
	take  func([]T) ([]T, bool)
	ready chan struct{}
	buf   []T
	open  bool
}

// NewFeed reads from take, woken by the function it gives onReady.
func NewFeed[T any](take func([]T) ([]T, bool), onReady func(func())) *Feed[T] {
	f := &Feed[T]{take: take, ready: make(chan struct{}, 1), open: true}
	onReady(func() {
		select {
		case f.ready <- struct{}{}:
		default:
		}
	})
	return f
}

// Recv waits for the next update; false once the queue has ended and every
// update before its end was received, or when ctx is done.
func (f *Feed[T]) Recv(ctx context.Context) (T, bool) {
	var zero T
	for {
		if len(f.buf) == 0 && f.open {
			f.buf, f.open = f.take(f.buf[:0])
		}
		if len(f.buf) > 0 {
			u := f.buf[0]
			f.buf = f.buf[1:]
			return u, true
		}
		if !f.open {
			return zero, false
		}
		select {
		case <-f.ready:
		case <-ctx.Done():
			return zero, false
		}
	}
}

// Take returns the updates that have come and not been received, without
// waiting.
func (f *Feed[T]) Take() []T {
	if f.open {
		f.buf, f.open = f.take(f.buf)
	}
	us := f.buf
	f.buf = nil
	return us
}
