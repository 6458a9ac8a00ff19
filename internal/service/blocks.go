package service

import (
	"context"

	"dsol/internal/game"
)

// blocksOf returns the players blocked by or blocking player: for each,
// true when player blocked them.
func (s *Service) blocksOf(ctx context.Context, player string) (map[string]bool, error) {
	bs, err := s.store.BlocksAmong(ctx, []string{player})
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(bs))
	for _, b := range bs {
		if b.PlayerID == player {
			out[b.BlockedID] = true
		} else if _, ok := out[b.PlayerID]; !ok {
			out[b.PlayerID] = false
		}
	}
	return out, nil
}

// avoidOf lists the players blocked by or blocking player (for the
// arenas, which never pair them).
func (s *Service) avoidOf(ctx context.Context, player string) ([]string, error) {
	bl, err := s.blocksOf(ctx, player)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(bl))
	for p := range bl {
		out = append(out, p)
	}
	return out, nil
}

// checkNotBlocked refuses (403) what player would do with other (join
// their race, rematch them) when either blocked the other.
func (s *Service) checkNotBlocked(ctx context.Context, player, other string) error {
	bl, err := s.blocksOf(ctx, player)
	if err != nil {
		return err
	}
	byMe, ok := bl[other]
	switch {
	case !ok:
		return nil
	case byMe:
		return game.Errorf(game.Forbidden, "you blocked this player: unblock them in Settings to race them")
	default:
		return game.Errorf(game.Forbidden, "this player blocked you: you cannot race them")
	}
}
