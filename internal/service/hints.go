package service

import (
	"context"

	"dsol/internal/game"
	"dsol/internal/hint"
	"dsol/internal/klondike"
	"dsol/internal/live"
	"dsol/internal/protocol"
	"dsol/internal/race"
	"dsol/internal/racelive"
	"dsol/internal/solo"
)

// Hint is the answer to a hint: a legal action, or none (null) when no
// move helps, and a short sentence saying why.
type Hint struct {
	Action *klondike.Action `json:"action"`
	Reason string           `json:"reason"`
}

// hintAt works out a move for game id at position p from what its player
// has seen (package hint), within o's work. It runs on the caller's
// goroutine, never the table's: hints take a CPU for up to a few hundred
// milliseconds.
func hintAt(id string, p live.SoloPosition, o hint.Options) Hint {
	h := hint.For(p.Seen, &p.Found, hint.Seed(id, p.Seq), o)
	out := Hint{Reason: h.Reason}
	if h.OK {
		out.Action = &h.Action
	}
	return out
}

// SolverCheck is the live.CheckFunc of the server: it waits for a free
// solver slot (or for ctx to end: a newer action came, or the table
// stopped), then lets the solver decide the position with full information
// within budget positions, and gives the slot back. Only the verdict leaves
// it.
func SolverCheck(budget int64, slots *Slots) live.CheckFunc {
	return func(ctx context.Context, b klondike.Board, f klondike.Foundations) *bool {
		if !slots.Take(ctx) {
			return nil
		}
		defer slots.Free()
		return solo.StillWinnable(&b, &f, budget, func() bool { return ctx.Err() == nil })
	}
}

// SolverThink is the server's racelive.ThinkFunc: a search in one of the solver
// slots that the hints and the live checks share, if one is free at once;
// else false, and the bot plays its plain move.
func SolverThink(slots *Slots) racelive.ThinkFunc {
	return func(s race.Seen, seed uint64) (hint.Hint, bool) {
		if !slots.TryTake() {
			return hint.Hint{}, false
		}
		defer slots.Free()
		return race.Think(s, seed, race.StrongOptions), true
	}
}

// Hint works out a hint for a player's own solo game in play, in a solver
// slot (none free: rate_limited), and counts it in the game when it has an
// action. The seq and the board do not change.
func (s *Service) Hint(ctx context.Context, id, player string) (Hint, error) {
	pos, err := s.SoloInPlay(ctx, id, player, "hints are")
	if err != nil {
		return Hint{}, err
	}
	if !s.slots.TryTake() {
		return Hint{}, game.Errorf(game.RateLimited, "the server is working out other hints; ask again in a moment")
	}
	h := hintAt(id, pos, s.hint)
	s.slots.Free()
	if h.Action != nil {
		if _, err := s.tables.AddHint(ctx, id); err != nil {
			return Hint{}, err
		}
	}
	return h, nil
}

// SetCheck turns the live check on for a player's own solo game in play
// (see live.Table.SetCheck): the game counts as assisted from then on.
func (s *Service) SetCheck(ctx context.Context, id, player string) (protocol.View, error) {
	if _, err := s.SoloInPlay(ctx, id, player, "the check is"); err != nil {
		return nil, err
	}
	return s.tables.SetCheck(ctx, id)
}
