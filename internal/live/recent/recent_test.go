package recent

import (
	"fmt"
	"testing"
	"time"
)

// TestWindowFromAnySeq: a window started at any seq (a table loaded from a
// snapshot) holds the records of its last Window seqs, whatever the seq
// it started from and how far it went.
func TestWindowFromAnySeq(t *testing.T) {
	for _, from := range []int64{0, 1, 38, 127, 128, 422, 1000} {
		for _, n := range []int64{0, 1, 90, Window, Window + 1, 3*Window + 5} {
			r := After(from)
			for s := from + 1; s <= from+n; s++ {
				r.Add(Record{At: s})
			}
			if r.Last() != from+n || r.First() != from+n-min(n, Window)+1 {
				t.Fatalf("from %d, %d added: last %d, first %d", from, n, r.Last(), r.First())
			}
			for s := from - 1; s <= from+n+1; s++ {
				rec, ok := r.Get(s)
				if want := s > from+n-min(n, Window) && s <= from+n && s >= 1; ok != want || (ok && rec.At != s) {
					t.Fatalf("from %d, %d added: seq %d gives %+v, %v", from, n, s, rec, ok)
				}
			}
		}
	}
}

// TestRelease: a released window holds no record but keeps its seq and the
// time of its last record, and fills again from the next seq.
func TestRelease(t *testing.T) {
	r := After(0)
	for s := int64(1); s <= 200; s++ {
		r.Add(Record{At: s * 10})
	}
	r.Release()
	if _, ok := r.Get(200); ok || r.Last() != 200 || r.First() != 201 || r.LastAt() != 2000 || !r.LastTime().Equal(time.UnixMicro(2000)) {
		t.Fatalf("released: last %d first %d at %d", r.Last(), r.First(), r.LastAt())
	}
	r.Add(Record{At: 2010})
	if rec, ok := r.Get(201); !ok || rec.At != 2010 || r.First() != 201 {
		t.Fatalf("after a release: seq 201 gives %+v, %v; first %d", rec, ok, r.First())
	}
	if _, ok := r.Get(200); ok {
		t.Fatal("a released record came back")
	}
}

// TestClientIDs: each seat remembers its last IDHorizon ids and their
// seqs, and forgets the oldest beyond.
func TestClientIDs(t *testing.T) {
	var c ClientIDs
	if _, ok := c.Get(1, "a"); ok {
		t.Fatal("an empty ring knows an id")
	}
	for i := range IDHorizon + 10 {
		c.Put(1, fmt.Sprint("id", i), int64(2*i+1))
		c.Put(2, fmt.Sprint("id", i), int64(2*i+2))
	}
	for i := range IDHorizon + 10 {
		seq, ok := c.Get(1, fmt.Sprint("id", i))
		if want := i >= 10; ok != want || (ok && seq != int64(2*i+1)) {
			t.Fatalf("seat 1, id%d: %d, %v", i, seq, ok)
		}
		if seq, ok := c.Get(2, fmt.Sprint("id", i)); ok && seq != int64(2*i+2) {
			t.Fatalf("seat 2, id%d: %d", i, seq)
		}
	}
	if _, ok := c.Get(3, "id20"); ok {
		t.Fatal("a seat out of range knows an id")
	}
}
