package service

import (
	"context"

	"dsol/internal/matchmaking"
)

// match puts a player in the quick-match queue, or pairs them at once,
// once this node holds the queue's lease: an *ownership.ElsewhereError
// means another node runs the queue.
func (s *Service) match(ctx context.Context, e matchmaking.Entry) (string, error) {
	if err := s.owner.Acquire(ctx, matchmaking.ID); err != nil {
		return "", err
	}
	return s.queue.Join(ctx, e)
}

// ErrNotQueued answers a match socket or a leave of a player not in the
// queue.
var ErrNotQueued = matchmaking.ErrNotQueued

// Unmatch takes a player out of the quick-match queue (ErrNotQueued when
// not in it).
func (s *Service) Unmatch(player string) error { return s.queue.Leave(player) }

// MatchWatch follows a player's place in the quick-match queue (see
// matchmaking.Queue.Watch).
func (s *Service) MatchWatch(player string) (<-chan []byte, func(), error) {
	return s.queue.Watch(player)
}

// MatchBlocked tells the quick-match queue that a blocked b: the two are
// never paired from now on.
func (s *Service) MatchBlocked(a, b string) { s.queue.Blocked(a, b) }

// MatchWaiting returns how many players wait for a quick match.
func (s *Service) MatchWaiting() int { return s.queue.Waiting() }

// SweepQueue pairs the waiting players whose windows widened enough (the
// queue does so every matchmaking.SweepEvery by itself).
func (s *Service) SweepQueue(ctx context.Context) { s.queue.Sweep(ctx) }
