package httpapi

import (
	"net/http"
)

// matchWaiting is the answer of POST /api/v1/match while the player waits:
// follow GET /api/v1/match/ws; after botAfterSeconds the client offers a
// race against the computer instead.
type matchWaiting struct {
	Status          string `json:"status"` // "waiting"
	BotAfterSeconds int    `json:"botAfterSeconds"`
}

// match is POST /api/v1/match: quick match. The body takes the options of
// POST /api/v1/races (draw, redeal, decks, turns, first, soloOutBonus,
// series, turnSeconds), checked the same way; code (a quick match is always
// dealt by the server), bot and public (it is never in the lobby) are
// refused (decodeMatch). The player is paired with the closest-rated player
// waiting for the same options (table's match.go tells the window), never
// with one they blocked or were blocked by (Registry.QuickMatch): 201 with
// the new race, the caller in seat 2, the opponent told on their match
// socket; or 202 {"status": "waiting"}.
func (s *server) match(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	b, err := readBody(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	spec, err := decodeMatch(b)
	if err != nil {
		s.error(w, r, err)
		return
	}
	id, v, err := s.games.QuickMatch(r.Context(), p.ID, spec.table())
	if err != nil {
		s.error(w, r, err)
		return
	}
	if id == "" {
		writeJSON(w, http.StatusAccepted, matchWaiting{Status: "waiting", BotAfterSeconds: int(s.cfg.MatchBotAfter.Seconds())})
		return
	}
	s.answerRace(w, http.StatusCreated, v)
}

// unmatch is DELETE /api/v1/match: the player leaves the queue (a player
// not in it is answered the same), {"status": "idle"}.
func (s *server) unmatch(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	_ = s.games.Unmatch(p.ID)
	writeJSON(w, http.StatusOK, struct {
		Status string `json:"status"`
	}{"idle"})
}
