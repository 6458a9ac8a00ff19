package httpapi

import (
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"

	"dsol/internal/game"
	"dsol/internal/store"
	"dsol/internal/table"
)

// blockedPlayer is one entry of GET /api/v1/me/blocks.
type blockedPlayer struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// blockTarget is the player of the {id} in the path that the caller may
// block or unblock: not themselves, the bot or the deleted players' row
// (400), and an existing player (404).
func (s *server) blockTarget(r *http.Request) (string, error) {
	p, _ := playerOf(r.Context())
	id := chi.URLParam(r, "id")
	switch id {
	case p.ID:
		return "", game.Errorf(game.BadRequest, "you cannot block yourself")
	case table.BotPlayerID:
		return "", game.Errorf(game.BadRequest, "the computer cannot be blocked: just do not race it")
	case store.DeletedPlayerID:
		return "", game.Errorf(game.BadRequest, "this player deleted their data: there is nobody to block")
	}
	if _, err := s.store.Player(r.Context(), id); errors.Is(err, store.ErrNotFound) {
		return "", game.Errorf(game.NotFound, "no such player")
	} else if err != nil {
		return "", err
	}
	return id, nil
}

// block is POST /api/v1/players/{id}/block: from now on the caller and
// that player are never paired by quick match, do not see each other's
// races in the lobby and cannot join or rematch each other's races. 204,
// blocked before or not.
func (s *server) block(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	id, err := s.blockTarget(r)
	if err == nil {
		err = s.store.Block(r.Context(), p.ID, id, s.clock())
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	s.tables.MatchBlocked(p.ID, id)
	s.lobbyWS.Hub().Changed()
	w.WriteHeader(http.StatusNoContent)
}

// unblock is DELETE /api/v1/players/{id}/block: the caller's block of that
// player ends (a block of the caller by them stays). 204, blocked or not.
func (s *server) unblock(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	id, err := s.blockTarget(r)
	if err == nil {
		err = s.store.Unblock(r.Context(), p.ID, id)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	s.lobbyWS.Hub().Changed()
	w.WriteHeader(http.StatusNoContent)
}

// listBlocks is GET /api/v1/me/blocks: the players the caller blocked,
// oldest block first, {"blocked": [{"id", "name"}]}.
func (s *server) listBlocks(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	bs, err := s.store.Blocks(r.Context(), p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	out := make([]blockedPlayer, len(bs))
	for i, b := range bs {
		out[i] = blockedPlayer{ID: b.BlockedID, Name: b.BlockedName}
	}
	writeJSON(w, http.StatusOK, struct {
		Blocked []blockedPlayer `json:"blocked"`
	}{out})
}
