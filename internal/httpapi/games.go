package httpapi

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"dsol/internal/cards"
	"dsol/internal/klondike"
	"dsol/internal/solo"
	"dsol/internal/store"
	"dsol/internal/table"
)

// healthz answers while the process runs.
func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz answers 200 when the store is reachable.
func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		s.error(w, r, &table.Error{Code: table.Unavailable, Msg: "the store is not reachable", Err: err})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// randomDeal picks a deal number uniformly from the server's random source.
func (s *server) randomDeal() (uint64, error) {
	const limit = (1 << 64) - (1<<64)%cards.DealCount // largest multiple of DealCount
	var b [8]byte
	for {
		if _, err := io.ReadFull(s.random, b[:]); err != nil {
			return 0, err
		}
		if v := binary.LittleEndian.Uint64(b[:]); v < limit {
			return v % cards.DealCount, nil
		}
	}
}

// createGame is POST /api/v1/games: {"draw", "scoring"} or {"code"}.
func (s *server) createGame(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	var in struct {
		Draw    *int    `json:"draw"`
		Scoring *string `json:"scoring"`
		Code    *string `json:"code"`
	}
	if err := decodeBody(r, &in, true); err != nil {
		s.error(w, r, err)
		return
	}
	var code cards.Code
	if in.Code != nil {
		if in.Draw != nil || in.Scoring != nil {
			s.error(w, r, table.Errorf(table.BadRequest, "send either a code or draw and scoring, not both"))
			return
		}
		c, err := cards.ParseCode(*in.Code)
		if err != nil {
			s.error(w, r, err)
			return
		}
		if c.Kind != cards.Solo {
			s.error(w, r, table.Errorf(table.BadCode, "%s is a race code; solo games take DS1 codes", c))
			return
		}
		code = c
	} else {
		code = cards.Code{Kind: cards.Solo, Draw: 1}
		if in.Draw != nil {
			if *in.Draw != 1 && *in.Draw != 3 {
				s.error(w, r, table.Errorf(table.BadRequest, "draw must be 1 or 3"))
				return
			}
			code.Draw = *in.Draw
		}
		if in.Scoring != nil {
			switch *in.Scoring {
			case "normal":
			case "vegas":
				code.Vegas = true
			default:
				s.error(w, r, table.Errorf(table.BadRequest, "scoring must be \"normal\" or \"vegas\""))
				return
			}
		}
		deal, err := s.randomDeal()
		if err != nil {
			s.error(w, r, err)
			return
		}
		code.Deal = deal
	}
	id, err := s.randomString(12)
	if err != nil {
		s.error(w, r, err)
		return
	}
	now := s.clock()
	g := store.Game{ID: id, Kind: "solo", Code: code.String(), Status: "playing",
		Seats: [2]string{p.ID}, CreatedAt: now, UpdatedAt: now}
	if err := s.store.CreateGame(r.Context(), g); err != nil {
		s.error(w, r, err)
		return
	}
	_, view, err := s.tables.Snapshot(r.Context(), id, 1)
	if err != nil {
		s.error(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/v1/games/"+id)
	writeJSON(w, http.StatusCreated, view)
}

// seatOf returns the caller's seat in a game (1 or 2), or 0 when not seated.
func seatOf(g store.Game, playerID string) int {
	for i, id := range g.Seats {
		if id != "" && id == playerID {
			return i + 1
		}
	}
	return 0
}

// game loads the table of the {id} in the path and the caller's seat. Solo
// games are private: anyone but the owner gets 403. Race spectators get seat 0.
func (s *server) game(r *http.Request) (*table.Table, int, error) {
	p, _ := playerOf(r.Context())
	t, err := s.tables.Get(r.Context(), chi.URLParam(r, "id"))
	if errors.Is(err, store.ErrNotFound) {
		return nil, 0, table.Errorf(table.NotFound, "no such game")
	}
	if err != nil {
		return nil, 0, err
	}
	g := t.Game()
	seat := seatOf(g, p.ID)
	if seat == 0 && g.Kind == "solo" {
		return nil, 0, table.Errorf(table.Forbidden, "this game is not yours")
	}
	return t, seat, nil
}

// getGame is GET /api/v1/games/{id}: the caller's view.
func (s *server) getGame(w http.ResponseWriter, r *http.Request) {
	t, seat, err := s.game(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	_, view, err := s.tables.Snapshot(r.Context(), t.ID(), seat)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, view)
}

// gameSummary is one game of a listing.
type gameSummary struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	Code      string    `json:"code"`
	Status    string    `json:"status"`
	Seat      int       `json:"seat"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// listLimit bounds a game listing.
const listLimit = 100

// listGames is GET /api/v1/games?status=: the caller's games, newest first.
func (s *server) listGames(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	status := r.URL.Query().Get("status")
	switch status {
	case "", "playing", "won", "waiting", "over":
	default:
		s.error(w, r, table.Errorf(table.BadRequest, "status must be playing, won, waiting or over"))
		return
	}
	gs, err := s.store.ListGames(r.Context(), p.ID, status, listLimit)
	if err != nil {
		s.error(w, r, err)
		return
	}
	out := struct {
		Games []gameSummary `json:"games"`
	}{Games: make([]gameSummary, len(gs))}
	for i, g := range gs {
		out.Games[i] = gameSummary{ID: g.ID, Kind: g.Kind, Code: g.Code, Status: g.Status,
			Seat: seatOf(g, p.ID), CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt}
	}
	writeJSON(w, http.StatusOK, out)
}

// actionRequest is the body of POST /api/v1/games/{id}/actions.
type actionRequest struct {
	Action json.RawMessage `json:"action"`
	Seq    *int64          `json:"seq"`
	ID     *string         `json:"id"`
}

// parseAction reads an action request: the client id may come as a top-level
// "id" or as "id" inside the action; it is stripped before the action is
// decoded strictly.
func parseAction(r *http.Request) (klondike.Action, string, *int64, error) {
	var in actionRequest
	if err := decodeBody(r, &in, false); err != nil {
		return klondike.Action{}, "", nil, err
	}
	raw := bytes.TrimSpace(in.Action)
	if len(raw) == 0 || raw[0] != '{' {
		return klondike.Action{}, "", nil, table.Errorf(table.BadRequest, "\"action\" must be an object such as {\"type\": \"draw\"}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return klondike.Action{}, "", nil, table.Errorf(table.BadRequest, "action: %v", err)
	}
	var cid string
	if in.ID != nil {
		cid = *in.ID
	}
	if v, ok := fields["id"]; ok {
		var inner string
		if err := json.Unmarshal(v, &inner); err != nil {
			return klondike.Action{}, "", nil, table.Errorf(table.BadRequest, "action id must be a string")
		}
		if in.ID != nil && inner != cid {
			return klondike.Action{}, "", nil, table.Errorf(table.BadRequest, "two different action ids")
		}
		cid = inner
		delete(fields, "id")
		raw, _ = json.Marshal(fields)
	}
	if (in.ID != nil || cid != "") && !table.ValidClientID(cid) {
		return klondike.Action{}, "", nil, table.Errorf(table.BadRequest, "an action id has 1 to %d printable ASCII characters", table.MaxClientID)
	}
	a, err := klondike.DecodeAction(raw)
	if err != nil {
		return klondike.Action{}, "", nil, err
	}
	if in.Seq != nil && *in.Seq < 0 {
		return klondike.Action{}, "", nil, table.Errorf(table.BadRequest, "seq cannot be negative")
	}
	return a, cid, in.Seq, nil
}

// postAction is POST /api/v1/games/{id}/actions: one action for the
// caller's seat; the answer is the caller's view right after it (for a resent
// action id, the current view).
func (s *server) postAction(w http.ResponseWriter, r *http.Request) {
	t, seat, err := s.game(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if seat == 0 {
		s.error(w, r, table.Errorf(table.Forbidden, "spectators cannot play"))
		return
	}
	a, cid, seq, err := parseAction(r)
	if err != nil {
		s.metrics.ObserveAction("", string(table.AsError(err).Code))
		s.error(w, r, err)
		return
	}
	res, err := s.tables.Do(r.Context(), t.ID(), table.Command{Seat: seat, Action: a, ClientID: cid, Seq: seq})
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res.View)
}

// codeJSON describes a game code.
type codeJSON struct {
	Code    string `json:"code"`
	Kind    string `json:"kind"`
	Draw    int    `json:"draw"`
	Scoring string `json:"scoring,omitempty"`
	Redeal  string `json:"redeal,omitempty"`
	Decks   string `json:"decks,omitempty"`
	Deal    uint64 `json:"deal"`
}

// getCode is GET /api/v1/codes/{code}: what a code means (never its cards).
func (s *server) getCode(w http.ResponseWriter, r *http.Request) {
	c, err := cards.ParseCode(chi.URLParam(r, "code"))
	if err == nil && !c.Valid() {
		err = table.Errorf(table.BadCode, "the code names no playable game")
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	out := codeJSON{Code: c.String(), Kind: c.Kind.String(), Draw: c.Draw, Deal: c.Deal}
	if c.Kind == cards.Solo {
		out.Scoring = solo.Scoring(c)
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
