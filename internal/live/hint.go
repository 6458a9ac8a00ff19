package live

import (
	"context"
	"errors"

	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
)

// SoloPosition is all that a hint may decide from in a solo game: what its
// player has seen of the board, the foundations, and the seq and status of
// the game they are at, and the refusal of any action in it (a game won,
// or a daily challenge's game whose day has closed; nil while it plays).
type SoloPosition struct {
	Seq    int64
	Status string
	Seen   klondike.Seen
	Found  klondike.Foundations
	Over   error
}

// SoloPosition returns the current position of a solo game (forbidden for a
// race).
func (t *Table) SoloPosition(ctx context.Context) (SoloPosition, error) {
	var p SoloPosition
	solo := false
	err := t.call(ctx, func() {
		e, ok := t.eng.(*engine.Solo)
		if !ok {
			return
		}
		t.touch()
		solo = true
		p = SoloPosition{Seq: t.seq, Status: e.Game().Status().String(), Seen: e.Game().Seen(), Found: *e.Game().Foundations(), Over: e.Check(1)}
	})
	if err == nil && !solo {
		err = game.Errorf(game.Forbidden, "hints are for solo games")
	}
	return p, err
}

// AddHint counts one more hint given in a solo game: in the store, then in
// the table's header and in the views it builds from then on. The seq and
// the board stay as they are: a hint is not an action, and subscribers see
// the new count in the view of the next event. A table that stopped
// meanwhile is no matter: the next one reads the count from the store.
func (t *Table) AddHint(ctx context.Context) (int, error) {
	sctx, cancel := context.WithTimeout(ctx, t.cfg.StoreTimeout)
	defer cancel()
	n, err := t.cfg.Store.AddHint(sctx, t.id)
	if err != nil {
		return 0, err
	}
	err = t.call(ctx, func() {
		if e, ok := t.eng.(*engine.Solo); ok {
			e.SetHints(n)
		}
		if g := *t.game.Load(); n > g.Hints {
			g.Hints = n
			t.game.Store(&g)
		}
	})
	if errors.Is(err, protocol.ErrStopped) {
		err = nil
	}
	return n, err
}

// SoloPosition returns the current position of a solo game for a hint,
// loading its table if needed (and again when the one it found stopped).
func (r *Registry) SoloPosition(ctx context.Context, id string) (SoloPosition, error) {
	for {
		t, err := r.Get(ctx, id)
		if err != nil {
			return SoloPosition{}, err
		}
		p, err := t.SoloPosition(ctx)
		if !errors.Is(err, protocol.ErrStopped) {
			return p, err
		}
	}
}

// AddHint counts a hint given in a game and returns the new count (once:
// it is not tried again on another table).
func (r *Registry) AddHint(ctx context.Context, id string) (int, error) {
	t, err := r.Get(ctx, id)
	if err != nil {
		return 0, err
	}
	return t.AddHint(ctx)
}
