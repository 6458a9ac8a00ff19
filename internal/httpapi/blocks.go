package httpapi

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// blockedPlayer is one entry of GET /api/v1/me/blocks.
type blockedPlayer struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// block is POST /api/v1/players/{id}/block: from now on the caller and
// that player are never paired by quick match, do not see each other's
// races in the lobby and cannot join or rematch each other's races. 204,
// blocked before or not; 400 for the caller themselves, the bot or a
// deleted player, 404 for nobody.
func (s *server) block(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	id := chi.URLParam(r, "id")
	if err := s.players.Block(r.Context(), p.ID, id); err != nil {
		s.error(w, r, err)
		return
	}
	s.games.MatchBlocked(p.ID, id)
	s.hub.Changed()
	w.WriteHeader(http.StatusNoContent)
}

// unblock is DELETE /api/v1/players/{id}/block: the caller's block of that
// player ends (a block of the caller by them stays). 204, blocked or not.
func (s *server) unblock(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	if err := s.players.Unblock(r.Context(), p.ID, chi.URLParam(r, "id")); err != nil {
		s.error(w, r, err)
		return
	}
	s.hub.Changed()
	w.WriteHeader(http.StatusNoContent)
}

// listBlocks is GET /api/v1/me/blocks: the players the caller blocked,
// oldest block first, {"blocked": [{"id", "name"}]}.
func (s *server) listBlocks(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	bs, err := s.players.Blocks(r.Context(), p.ID)
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
