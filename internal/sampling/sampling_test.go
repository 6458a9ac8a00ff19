package sampling

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestCodes: the sample's deals follow from the seed.
func TestCodes(t *testing.T) {
	a, b := Codes(9, 3, 1, true), Codes(9, 3, 1, true)
	if len(a) != 3 || a[0] != b[0] || a[2] != b[2] || a[0] == a[1] || !strings.HasPrefix(a[0].String(), "DS1-D1V-") {
		t.Fatalf("%v %v", a, b)
	}
	if Codes(10, 3, 1, true)[0] == a[0] {
		t.Fatal("another seed gives the same deals")
	}
	if c := Codes(9, 1, 3, false)[0]; c.Deal != a[0].Deal || !strings.HasPrefix(c.String(), "DS1-D3N-") {
		t.Fatalf("another mode of seed 9: %v, want deal %d", c, a[0].Deal)
	}
}

// TestMode names the four solo modes as the codes do.
func TestMode(t *testing.T) {
	for _, tc := range []struct {
		draw  int
		vegas bool
		want  string
	}{{1, false, "D1N"}, {3, false, "D3N"}, {1, true, "D1V"}, {3, true, "D3V"}} {
		if got := Mode(tc.draw, tc.vegas); got != tc.want {
			t.Errorf("Mode(%d, %v) = %s, want %s", tc.draw, tc.vegas, got, tc.want)
		}
		if got := Codes(1, 1, tc.draw, tc.vegas)[0].String(); got[4:7] != tc.want {
			t.Errorf("code %s, mode %s", got, tc.want)
		}
	}
}

// TestFeed hands every item out in order, or stops when the context ends.
func TestFeed(t *testing.T) {
	t.Run("all", func(t *testing.T) {
		next := make(chan int)
		var got []int
		done := make(chan struct{})
		go func() {
			for i := range next {
				got = append(got, i)
			}
			close(done)
		}()
		if n := Feed(context.Background(), next, []int{4, 5, 6}); n != 3 {
			t.Fatalf("sent %d, want 3", n)
		}
		<-done
		if len(got) != 3 || got[0] != 4 || got[2] != 6 {
			t.Fatalf("received %v", got)
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		next := make(chan int)
		go func() {
			<-next
			cancel()
		}()
		if n := Feed(ctx, next, []int{1, 2, 3}); n != 1 {
			t.Fatalf("sent %d, want 1", n)
		}
		if _, open := <-next; open {
			t.Fatal("next left open")
		}
	})
}

// TestWilson checks the interval against values computed by hand.
func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		{50, 100, 0.4038, 0.5962},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{95, 100, 0.8883, 0.9785},
	} {
		got := Wilson(tc.k, tc.n)
		if d0, d1 := got[0]-tc.lo, got[1]-tc.hi; d0 > 1e-4 || d0 < -1e-4 || d1 > 1e-4 || d1 < -1e-4 {
			t.Errorf("Wilson(%d, %d) = %v, want [%v %v]", tc.k, tc.n, got, tc.lo, tc.hi)
		}
	}
}

// TestQuantile takes the nearest rank, and 0 of nothing.
func TestQuantile(t *testing.T) {
	ms := func(n ...int) []time.Duration {
		out := make([]time.Duration, len(n))
		for i, x := range n {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	for _, tc := range []struct {
		in   []time.Duration
		q    float64
		want time.Duration
	}{
		{nil, 0.5, 0},
		{ms(7), 0.95, 7 * time.Millisecond},
		{ms(1, 2, 3, 4), 0.5, 2 * time.Millisecond},
		{ms(1, 2, 3, 4, 5), 0.5, 3 * time.Millisecond},
		{ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 0.95, 10 * time.Millisecond},
		{ms(1, 2, 3), 0, time.Millisecond},
	} {
		if got := Quantile(tc.in, tc.q); got != tc.want {
			t.Errorf("Quantile(%v, %v) = %v, want %v", tc.in, tc.q, got, tc.want)
		}
	}
}

// TestFigures: rates to four decimals, times in milliseconds to one.
func TestFigures(t *testing.T) {
	if got := Round(2.0 / 3); got != 0.6667 {
		t.Errorf("Round(2/3) = %v", got)
	}
	if got := Millis(1234567 * time.Microsecond); got != "1234.6" {
		t.Errorf("Millis = %s", got)
	}
	if got := Millis(0); got != "0.0" {
		t.Errorf("Millis(0) = %s", got)
	}
}
