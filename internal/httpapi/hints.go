package httpapi

import (
	"context"
	"net/http"

	"dsol/internal/hint"
	"dsol/internal/klondike"
	"dsol/internal/race"
	"dsol/internal/solo"
	"dsol/internal/table"
)

// hintBody is the answer of GET /api/v1/games/{id}/hint: a legal action, or
// null when no move helps, and a short sentence saying why.
type hintBody struct {
	Action *klondike.Action `json:"action"`
	Reason string           `json:"reason"`
}

// getHint is GET /api/v1/games/{id}/hint: a move recommended from what the
// player has seen (package hint), for the caller's own solo game in play.
// The hint is worked out outside the game's table, in one of the server's
// hint slots (HintWorkers; none free: rate_limited), and a hint with an
// action is counted in the game. The seq and the board do not change.
func (s *server) getHint(w http.ResponseWriter, r *http.Request) {
	t, pos, err := s.soloInPlay(r, "hints are")
	if err != nil {
		s.error(w, r, err)
		return
	}
	select {
	case s.hintSlots <- struct{}{}:
	default:
		s.error(w, r, table.Errorf(table.RateLimited, "the server is working out other hints; ask again in a moment"))
		return
	}
	h := hint.For(pos.Seen, &pos.Found, hint.Seed(t.ID(), pos.Seq), s.cfg.Hint)
	<-s.hintSlots
	out := hintBody{Reason: h.Reason}
	if h.OK {
		out.Action = &h.Action
		if _, err := s.tables.AddHint(r.Context(), t.ID()); err != nil {
			s.error(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// soloInPlay finds the request's game for a hint or a check (what names
// them in the refusal of a race): the caller's own solo game, in play, and
// its position.
func (s *server) soloInPlay(r *http.Request, what string) (*table.Table, table.SoloPosition, error) {
	t, _, err := s.game(r)
	if err != nil {
		return nil, table.SoloPosition{}, err
	}
	if t.Game().Kind != "solo" {
		return nil, table.SoloPosition{}, table.Errorf(table.Forbidden, "%s for solo games, not races", what)
	}
	pos, err := s.tables.SoloPosition(r.Context(), t.ID())
	if err != nil {
		return nil, table.SoloPosition{}, err
	}
	if pos.Status != "playing" {
		return nil, table.SoloPosition{}, &klondike.Error{Code: klondike.GameOver, Msg: "the game is won; start a new one"}
	}
	return t, pos, nil
}

// postCheck is POST /api/v1/games/{id}/check {"on": true}: turns the live
// check ("still winnable?") on for the caller's own solo game in play and
// answers the view, whose stillWinnable is null until the answer comes
// (table.SetCheck). The game counts as assisted from then on.
func (s *server) postCheck(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r)
	if err == nil {
		err = decodeCheck(body)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	t, _, err := s.soloInPlay(r, "the check is")
	if err != nil {
		s.error(w, r, err)
		return
	}
	v, err := s.tables.SetCheck(r.Context(), t.ID())
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// stillWinnable is the tables' live check (table.CheckFunc): it waits for
// one of the hint slots (or for ctx: a newer action, the table stopping),
// then lets the solver decide the position with full information within
// Config.CheckBudget positions. Only the verdict leaves it.
func (s *server) stillWinnable(ctx context.Context, b klondike.Board, f klondike.Foundations) *bool {
	select {
	case s.hintSlots <- struct{}{}:
	case <-ctx.Done():
		return nil
	}
	defer func() { <-s.hintSlots }()
	return solo.StillWinnable(&b, &f, s.cfg.CheckBudget, func() bool { return ctx.Err() == nil })
}

// thinkBot is the tables' search of the strong race bot (table.ThinkFunc):
// in one of the hint slots, which it shares with the hints and the live
// checks, when one is free; else false at once, and the bot plays its
// plain move for that turn.
func (s *server) thinkBot(seen race.Seen, seed uint64) (hint.Hint, bool) {
	select {
	case s.hintSlots <- struct{}{}:
	default:
		return hint.Hint{}, false
	}
	defer func() { <-s.hintSlots }()
	return race.Think(seen, seed, race.StrongOptions), true
}
