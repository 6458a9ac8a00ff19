package players

import (
	"context"
	"errors"

	"dsol/internal/game"
	"dsol/internal/store"
)

// blockTarget checks the player that id may block or unblock: not
// themselves, the bot or the deleted players' row (bad_request), and an
// existing player (not_found).
func (s *Service) blockTarget(ctx context.Context, id, target string) error {
	switch target {
	case id:
		return game.Errorf(game.BadRequest, "you cannot block yourself")
	case store.BotPlayerID:
		return game.Errorf(game.BadRequest, "the computer cannot be blocked: just do not race it")
	case store.DeletedPlayerID:
		return game.Errorf(game.BadRequest, "this player deleted their data: there is nobody to block")
	}
	if _, err := s.st.Player(ctx, target); errors.Is(err, store.ErrNotFound) {
		return game.Errorf(game.NotFound, "no such player")
	} else if err != nil {
		return err
	}
	return nil
}

// Block records that id blocked target: from now on the two are never
// paired by quick match, do not see each other's races in the lobby and
// cannot join or rematch each other's races (tell the match queue and the
// lobby). Blocking again is no error.
func (s *Service) Block(ctx context.Context, id, target string) error {
	if err := s.blockTarget(ctx, id, target); err != nil {
		return err
	}
	return s.st.Block(ctx, id, target, s.clock())
}

// Unblock ends id's block of target (a block of id by target stays).
func (s *Service) Unblock(ctx context.Context, id, target string) error {
	if err := s.blockTarget(ctx, id, target); err != nil {
		return err
	}
	return s.st.Unblock(ctx, id, target)
}

// Blocks returns the players id blocked, oldest block first.
func (s *Service) Blocks(ctx context.Context, id string) ([]store.Block, error) {
	return s.st.Blocks(ctx, id)
}
