package httpapi

import (
	"encoding/json"
	"net/http"
)

// logout is POST /api/v1/me/logout: the caller's token stops working (on
// this node at once; see players.Service.Logout for the others), the
// sockets opened with it close (CloseSignedOut) and the cookie goes.
func (s *server) logout(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	if err := s.players.Logout(r.Context(), p); err != nil {
		s.error(w, r, err)
		return
	}
	s.revoke(p.ID, p.TokenHash)
	s.clearSession(w, r)
	w.WriteHeader(http.StatusNoContent)
}

// logoutAll is POST /api/v1/me/logout-all: every token of the caller, their
// own included, stops working, every socket of the caller closes, and this
// device's cookie goes.
func (s *server) logoutAll(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	if err := s.players.LogoutAll(r.Context(), p.ID); err != nil {
		s.error(w, r, err)
		return
	}
	s.revoke(p.ID, nil)
	s.clearSession(w, r)
	w.WriteHeader(http.StatusNoContent)
}

// export is GET /api/v1/me/export: everything stored about the caller as
// one JSON document (players.ExportHead, then players.ExportGame for each
// game), a download (Content-Disposition: attachment). The games are
// streamed one at a time.
func (s *server) export(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	ctx := r.Context()
	head, games, err := s.players.Export(ctx, p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	b, err := json.Marshal(head)
	if err != nil {
		s.error(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Disposition", `attachment; filename="dsol-data.json"`)
	w.WriteHeader(http.StatusOK)
	// From here on an error can only cut the document short, which a
	// reader notices: it is no longer valid JSON.
	w.Write(b[:len(b)-1])
	w.Write([]byte(`,"games":[`))
	names := map[string]string{}
	for i, g := range games {
		eg, err := s.players.GameExport(ctx, g, p.ID, names)
		if err != nil {
			s.log.Warn("httpapi: export cut short", "err", err)
			return
		}
		if i > 0 {
			w.Write([]byte{','})
		}
		b, _ := json.Marshal(eg)
		w.Write(b)
	}
	w.Write([]byte("]}\n"))
}

// deleteMe is DELETE /api/v1/me: the caller's races in play are resigned
// (their opponents win), then the player, their tokens and transfer code,
// solo games and races nobody else played go; the other races stay, with
// the seat shown as a deleted player (players.Service.Delete). Every socket
// of the caller closes, and the arenas live on this node drop them from
// their standings (those on other nodes when they are next rebuilt). 204, and the cookie goes. A race whose table another node runs answers unavailable
// while it moves here: retry.
func (s *server) deleteMe(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	ctx := r.Context()
	ids, err := s.games.ResignAll(ctx, p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if err := s.players.Delete(ctx, p.ID); err != nil {
		s.error(w, r, err)
		return
	}
	s.revoke(p.ID, nil)
	s.games.Evict(ids)
	s.games.ForgetInArenas(p.ID)
	s.hub.Changed()
	s.clearSession(w, r)
	w.WriteHeader(http.StatusNoContent)
}
