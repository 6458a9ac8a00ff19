package httpapi

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/solo"
	"dsol/internal/store"
	"dsol/internal/table"
	"dsol/internal/winnable"
)

// healthz answers while the process runs.
func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
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
	code := spec.code
	var opts []byte
	switch {
	case spec.winnable:
		mode := winnable.ModeOf(code)
		code, err = s.winnable.Pick(r.Context(), mode, s.store, p.ID, s.random)
		if errors.Is(err, winnable.ErrEmpty) {
			err = game.Errorf(game.Unavailable, "no winnable deal of %s is known yet (the server is still looking for some): try again later, or without winnable", mode)
		}
		if err != nil {
			s.error(w, r, err)
			return
		}
		opts, _ = json.Marshal(game.SoloOptions{Winnable: true})
	case spec.random:
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
	g := store.Game{ID: id, Kind: "solo", Code: code.String(), Options: opts, Status: "playing",
		Seats: [2]string{p.ID}, CreatedAt: now, UpdatedAt: now}
	if err := s.store.CreateGame(r.Context(), g); err != nil {
		s.error(w, r, err)
		return
	}
	_, view, err := s.tables.Preview(r.Context(), id, 1)
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
		return nil, 0, game.Errorf(game.NotFound, "no such game")
	}
	if err != nil {
		return nil, 0, err
	}
	g := t.Game()
	seat := seatOf(g, p.ID)
	if seat == 0 && g.Kind == "solo" {
		return nil, 0, game.Errorf(game.Forbidden, "this game is not yours")
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

// gameSummary is one game of a listing (summarize).
type gameSummary struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	Code      string    `json:"code,omitempty"`
	Status    string    `json:"status"`
	Seat      int       `json:"seat"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// listLimit bounds a game listing, and is its page size unless limit says
// less.
const listLimit = 100

// listGames is GET /api/v1/games?status=&kind=&limit=&cursor=: the caller's
// games, newest first, a page at a time. next, when there are more, is the
// cursor of the next page (keyset paging: each page starts after the last
// game of the one before, so pages neither skip nor repeat games as new
// ones are created).
func (s *server) listGames(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	q, err := gameQuery(r.URL.Query())
	if err != nil {
		s.error(w, r, err)
		return
	}
	q.Player = p.ID
	limit := q.Limit
	q.Limit++ // one more tells whether there is a next page
	gs, err := s.store.ListGames(r.Context(), q)
	if err != nil {
		s.error(w, r, err)
		return
	}
	out := struct {
		Games []gameSummary `json:"games"`
		Next  string        `json:"next,omitempty"`
	}{}
	if len(gs) > limit {
		gs = gs[:limit]
		last := gs[limit-1]
		out.Next = encodeCursor(store.GameKey{CreatedAt: last.CreatedAt, ID: last.ID})
	}
	out.Games = make([]gameSummary, len(gs))
	for i, g := range gs {
		out.Games[i] = summarize(g, p.ID, s.clock())
	}
	writeJSON(w, http.StatusOK, out)
}

// gameQuery reads the filters and the page of a game listing.
func gameQuery(v url.Values) (store.GameQuery, error) {
	q := store.GameQuery{Status: v.Get("status"), Kind: v.Get("kind"), Limit: listLimit}
	switch q.Status {
	case "", "playing", "won", "waiting", "over":
	default:
		return q, game.Errorf(game.BadRequest, "status must be playing, won, waiting or over")
	}
	switch q.Kind {
	case "", "solo", "race":
	default:
		return q, game.Errorf(game.BadRequest, "kind must be solo or race")
	}
	if l := v.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > listLimit {
			return q, game.Errorf(game.BadRequest, "limit must be a whole number from 1 to %d", listLimit)
		}
		q.Limit = n
	}
	if c := v.Get("cursor"); c != "" {
		k, ok := decodeCursor(c)
		if !ok {
			return q, game.Errorf(game.BadRequest, "cursor is not one this server gave: list from the first page again")
		}
		q.After = k
	}
	return q, nil
}

// encodeCursor writes a listing's place as an opaque token: the creation
// time in microseconds and the id of the last game of a page.
func encodeCursor(k store.GameKey) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(k.CreatedAt.UnixMicro(), 10) + "." + k.ID))
}

func decodeCursor(c string) (store.GameKey, bool) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return store.GameKey{}, false
	}
	us, id, ok := strings.Cut(string(b), ".")
	n, err := strconv.ParseInt(us, 10, 64)
	if !ok || err != nil || id == "" {
		return store.GameKey{}, false
	}
	return store.GameKey{CreatedAt: time.UnixMicro(n).UTC(), ID: id}, true
}

// parseAction reads an action request (decodeActionEnvelope).
func parseAction(r *http.Request) (klondike.Action, string, *int64, error) {
	b, err := readBody(r)
	if err != nil {
		return klondike.Action{}, "", nil, err
	}
	return decodeActionEnvelope(b)
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
		s.error(w, r, game.Errorf(game.Forbidden, "spectators cannot play"))
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
