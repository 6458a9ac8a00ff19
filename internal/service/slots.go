package service

import "context"

// Slots bounds the solver searches worked out at once on a node (hints,
// live checks, the strong bot's searches), each of which takes a CPU for
// up to a few hundred milliseconds.
type Slots struct{ c chan struct{} }

// NewSlots returns n slots.
func NewSlots(n int) *Slots { return &Slots{c: make(chan struct{}, n)} }

// Take waits for a free slot, or for ctx (false).
func (s *Slots) Take(ctx context.Context) bool {
	select {
	case s.c <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// TryTake takes a free slot at once, or reports false when none is free.
func (s *Slots) TryTake() bool {
	select {
	case s.c <- struct{}{}:
		return true
	default:
		return false
	}
}

// Free gives a slot back.
func (s *Slots) Free() { <-s.c }

// Busy returns how many slots are taken.
func (s *Slots) Busy() int { return len(s.c) }
