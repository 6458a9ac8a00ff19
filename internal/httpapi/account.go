package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"dsol/internal/daily"
	"dsol/internal/store"
	"dsol/internal/table"
)

// logout is POST /api/v1/me/logout: the caller's token stops working (on
// this node at once; see authCache for the others) and the cookie goes.
func (s *server) logout(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	if err := s.store.RevokeToken(r.Context(), p.TokenHash); err != nil && !errors.Is(err, store.ErrNotFound) {
		s.error(w, r, err)
		return
	}
	s.auth.drop(p.TokenHash)
	s.clearSession(w, r)
	w.WriteHeader(http.StatusNoContent)
}

// logoutAll is POST /api/v1/me/logout-all: every token of the caller, their
// own included, stops working, and this device's cookie goes.
func (s *server) logoutAll(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	if _, err := s.store.RevokeTokens(r.Context(), p.ID); err != nil {
		s.error(w, r, err)
		return
	}
	s.auth.forget(p.ID)
	s.clearSession(w, r)
	w.WriteHeader(http.StatusNoContent)
}

// exportLimit bounds the games of an export: the newest ones.
const exportLimit = 10000

// The export: everything stored about a player. Token and code hashes are
// left out (they are secrets of a kind, and say nothing to a person).
type (
	exportPlayer struct {
		ID        string    `json:"id"`
		Name      string    `json:"name"`
		CreatedAt time.Time `json:"createdAt"`
	}
	exportDevice struct {
		SignedInAt time.Time `json:"signedInAt"`
	}
	exportLink struct {
		Expires   time.Time  `json:"expires"`
		UsedAt    *time.Time `json:"usedAt"`
		CreatedAt time.Time  `json:"createdAt"`
	}
	exportBlock struct {
		ID        string    `json:"id"`
		Name      string    `json:"name"`
		BlockedAt time.Time `json:"blockedAt"`
	}
	exportHead struct {
		ExportedAt time.Time      `json:"exportedAt"`
		Player     exportPlayer   `json:"player"`
		Devices    []exportDevice `json:"devices"`
		LinkCode   *exportLink    `json:"linkCode"`
		Blocked    []exportBlock  `json:"blocked"`
	}
	exportSeat struct {
		Seat int    `json:"seat"`
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	exportAction struct {
		Seq      int64           `json:"seq"`
		Seat     int             `json:"seat"`
		Action   json.RawMessage `json:"action"`
		ClientID string          `json:"clientId,omitempty"`
		At       time.Time       `json:"at"`
	}
	exportGame struct {
		gameSummary
		Seats      []exportSeat    `json:"seats"`
		Options    json.RawMessage `json:"options,omitempty"`
		Result     json.RawMessage `json:"result,omitempty"`
		SeriesGame int             `json:"seriesGame,omitempty"`
		Public     bool            `json:"public"`
		Actions    []exportAction  `json:"actions"`
	}
)

// summarize is a game as the caller's listings show it at now: a race's
// code only once the race is over, a daily challenge's game's only once
// its day has closed, as the code tells the deal.
func summarize(g store.Game, playerID string, now time.Time) gameSummary {
	sum := gameSummary{ID: g.ID, Kind: g.Kind, Status: g.Status,
		Seat: table.SeatOf(g, playerID), CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt}
	if (g.Kind != "race" || g.Status == "over") && !daily.Hidden(g.Kind, g.Options, now) {
		sum.Code = g.Code
	}
	return sum
}

// export is GET /api/v1/me/export: everything stored about the caller as
// one JSON document, a download (Content-Disposition: attachment). The
// games are streamed one at a time, the newest exportLimit of them, each
// with its seats and its actions; a race still waiting or in play has no
// code and no actions yet (they would tell its deal), nor a daily
// challenge's game while its day is open, as everywhere else.
func (s *server) export(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	ctx := r.Context()
	me, err := s.store.Player(ctx, p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	toks, err := s.store.Tokens(ctx, p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	head := exportHead{ExportedAt: s.clock(), Player: exportPlayer{ID: me.ID, Name: me.Name, CreatedAt: me.CreatedAt},
		Devices: make([]exportDevice, len(toks))}
	for i, t := range toks {
		head.Devices[i].SignedInAt = t.CreatedAt
	}
	switch c, err := s.store.LinkCode(ctx, p.ID); {
	case err == nil:
		head.LinkCode = &exportLink{Expires: c.Expires, CreatedAt: c.CreatedAt}
		if !c.UsedAt.IsZero() {
			head.LinkCode.UsedAt = &c.UsedAt
		}
	case !errors.Is(err, store.ErrNotFound):
		s.error(w, r, err)
		return
	}
	blocks, err := s.store.Blocks(ctx, p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	head.Blocked = make([]exportBlock, len(blocks))
	for i, b := range blocks {
		head.Blocked[i] = exportBlock{ID: b.BlockedID, Name: b.BlockedName, BlockedAt: b.CreatedAt}
	}
	games, err := s.store.ListGames(ctx, store.GameQuery{Player: p.ID, Limit: exportLimit})
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
		eg, err := s.exportGame(r, g, p.ID, names)
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

// exportGame is one game of an export; names caches the seats' names.
func (s *server) exportGame(r *http.Request, g store.Game, playerID string, names map[string]string) (exportGame, error) {
	eg := exportGame{gameSummary: summarize(g, playerID, s.clock()), Options: g.Options, SeriesGame: g.SeriesGame,
		Public: g.Public, Seats: []exportSeat{}, Actions: []exportAction{}}
	if g.Kind == "race" && g.Status == "over" {
		eg.Result = g.Result
	}
	for i, id := range g.Seats {
		if id == "" {
			continue
		}
		name, ok := names[id]
		if !ok {
			pl, err := s.store.Player(r.Context(), id)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return eg, err
			}
			name, names[id] = pl.Name, pl.Name
		}
		eg.Seats = append(eg.Seats, exportSeat{Seat: i + 1, ID: id, Name: name})
	}
	if eg.Code == "" {
		return eg, nil
	}
	acts, err := s.store.Actions(r.Context(), g.ID, 0)
	if err != nil {
		return eg, err
	}
	for _, a := range acts {
		eg.Actions = append(eg.Actions, exportAction{Seq: a.Seq, Seat: a.Seat, Action: a.Action, ClientID: a.ClientID, At: a.At})
	}
	return eg, nil
}

// deleteMe is DELETE /api/v1/me: the caller's races in play are resigned
// (their opponents win), then the player, their tokens and transfer code,
// solo games and races nobody else played go; the other races stay, with
// the seat shown as a deleted player (store.DeletePlayer). 204, and the
// cookie goes. A race whose table another node runs answers unavailable
// while it moves here: retry.
func (s *server) deleteMe(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	ctx := r.Context()
	ids, err := s.tables.ResignAll(ctx, p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if _, err := s.store.DeletePlayer(ctx, p.ID); err != nil {
		s.error(w, r, err)
		return
	}
	s.auth.forget(p.ID)
	s.tables.Evict(ids)
	s.lobbyWS.Hub().Changed()
	s.clearSession(w, r)
	w.WriteHeader(http.StatusNoContent)
}
