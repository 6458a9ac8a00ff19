package httpapi

import (
	"encoding/hex"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/players"
)

// healthz answers while the process runs.
func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// createGame is POST /api/v1/games: {"draw", "scoring", "winnable"} or
// {"code"}. A winnable game's deal comes from the pool of winnable deals,
// one the player has not played when the pool allows.
func (s *server) createGame(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	b, err := readBody(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	spec, err := decodeCreateGame(b)
	if err != nil {
		s.error(w, r, err)
		return
	}
	id, view, err := s.games.CreateSolo(r.Context(), p.ID, spec.table())
	if err != nil {
		s.error(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/v1/games/"+id)
	writeJSON(w, http.StatusCreated, view)
}

// getGame is GET /api/v1/games/{id}: the caller's view. Solo games are
// private: anyone but the owner gets 403; race spectators get seat 0's.
func (s *server) getGame(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	view, err := s.games.PlayerView(r.Context(), chi.URLParam(r, "id"), p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, view)
}

// listLimit bounds a game listing, and is its page size unless limit says
// less.
const listLimit = 100

// listGames is GET /api/v1/games?status=&kind=&limit=&cursor=: the caller's
// games, newest first, a page at a time (players.GamePage). next, when
// there are more, is the cursor of the next page.
func (s *server) listGames(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	f, err := gameQuery(r.URL.Query())
	if err != nil {
		s.error(w, r, err)
		return
	}
	out, err := s.players.Games(r.Context(), p.ID, f)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// gameQuery reads the filters and the page of a game listing; the players
// service reads the cursor.
func gameQuery(v url.Values) (players.GameFilter, error) {
	f := players.GameFilter{Status: v.Get("status"), Kind: v.Get("kind"), Limit: listLimit, Cursor: v.Get("cursor")}
	switch f.Status {
	case "", game.Playing, game.Won, game.Waiting, game.Over:
	default:
		return f, game.Errorf(game.BadRequest, "status must be playing, won, waiting or over")
	}
	switch f.Kind {
	case "", game.KindSolo, game.KindRace:
	default:
		return f, game.Errorf(game.BadRequest, "kind must be solo or race")
	}
	if l := v.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > listLimit {
			return f, game.Errorf(game.BadRequest, "limit must be a whole number from 1 to %d", listLimit)
		}
		f.Limit = n
	}
	return f, nil
}

// postAction is POST /api/v1/games/{id}/actions: one action for the
// caller's seat, {"action", "id"?, "seq"?} (live.DecodeCommand, the rules
// the WebSocket frames share); the answer is the caller's view right after
// it (for a resent action id, the current view).
func (s *server) postAction(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	res, err := s.games.Act(r.Context(), chi.URLParam(r, "id"), p.ID, r.Body)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res.View)
}

// codeJSON describes a game code. Deal is the deal number of a DS1/DR1
// code, or the 64 hexadecimal digits of a secret DS2/DR2 code (Secret).
type codeJSON struct {
	Code    string `json:"code"`
	Kind    string `json:"kind"`
	Draw    int    `json:"draw"`
	Scoring string `json:"scoring,omitempty"`
	Redeal  string `json:"redeal,omitempty"`
	Decks   string `json:"decks,omitempty"`
	Deal    any    `json:"deal"`
	Secret  bool   `json:"secret"`
}

// getCode is GET /api/v1/codes/{code}: what a code means (never its cards).
func (s *server) getCode(w http.ResponseWriter, r *http.Request) {
	c, err := cards.ParseCode(chi.URLParam(r, "code"))
	if err == nil && !c.Valid() {
		err = game.Errorf(game.BadCode, "the code names no playable game")
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	out := codeJSON{Code: c.String(), Kind: c.Kind.String(), Draw: c.Draw, Deal: c.Deal, Secret: c.Secret}
	if c.Secret {
		out.Deal = strings.ToUpper(hex.EncodeToString(c.Key[:]))
	}
	if c.Kind == cards.Solo {
		out.Scoring = "normal"
		if c.Vegas {
			out.Scoring = "vegas"
		}
	} else {
		out.Redeal, out.Decks = "unlimited", "independent"
		if c.Single {
			out.Redeal = "single"
		}
		if c.Mirrored {
			out.Decks = "mirrored"
		}
	}
	writeJSON(w, http.StatusOK, out)
}
