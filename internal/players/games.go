package players

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"dsol/internal/daily"
	"dsol/internal/game"
	"dsol/internal/store"
)

// GameSummary is one game of a player's listings (summarize).
type GameSummary struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	Code      string    `json:"code,omitempty"`
	Status    string    `json:"status"`
	Seat      int       `json:"seat"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// summarize is a game as the player's listings show it at now: a race's
// code only once the race is over, a daily challenge's game's only once
// its day has closed, as the code tells the deal.
func summarize(g store.Game, playerID string, now time.Time) GameSummary {
	sum := GameSummary{ID: g.ID, Kind: g.Kind, Status: g.Status,
		Seat: game.SeatOf(g.Seats, playerID), CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt}
	if (g.Kind != game.KindRace || g.Status == game.Over) && !daily.Hidden(g.Kind, g.Options, now) {
		sum.Code = g.Code
	}
	return sum
}

// GameFilter picks a page of a player's games: of a status and a kind (""
// for any), Limit of them, after the place Cursor names ("": from the
// newest).
type GameFilter struct {
	Status, Kind string
	Limit        int
	Cursor       string
}

// GamePage is a page of a player's games, newest first. Next, when there
// are more, is the cursor of the next page.
type GamePage struct {
	Games []GameSummary `json:"games"`
	Next  string        `json:"next,omitempty"`
}

// Games returns a page of a player's games. Pages are keyset pages: each
// starts after the last game of the one before, so pages neither skip nor
// repeat games as new ones are created. A cursor this service did not give
// is a bad_request.
func (s *Service) Games(ctx context.Context, id string, f GameFilter) (GamePage, error) {
	q := store.GameQuery{Player: id, Status: f.Status, Kind: f.Kind, Limit: f.Limit + 1} // one more tells whether there is a next page
	if f.Cursor != "" {
		k, ok := decodeCursor(f.Cursor)
		if !ok {
			return GamePage{}, game.Errorf(game.BadRequest, "cursor is not one this server gave: list from the first page again")
		}
		q.After = k
	}
	gs, err := s.st.ListGames(ctx, q)
	if err != nil {
		return GamePage{}, err
	}
	var out GamePage
	if len(gs) > f.Limit {
		gs = gs[:f.Limit]
		last := gs[f.Limit-1]
		out.Next = encodeCursor(store.GameKey{CreatedAt: last.CreatedAt, ID: last.ID})
	}
	out.Games = make([]GameSummary, len(gs))
	for i, g := range gs {
		out.Games[i] = summarize(g, id, s.clock())
	}
	return out, nil
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

// exportLimit bounds the games of an export: the newest ones.
const exportLimit = 10000

// The export: everything stored about a player. Token and code hashes are
// left out (they are secrets of a kind, and say nothing to a person).
type (
	ExportPlayer struct {
		ID        string    `json:"id"`
		Name      string    `json:"name"`
		CreatedAt time.Time `json:"createdAt"`
	}
	ExportDevice struct {
		SignedInAt time.Time `json:"signedInAt"`
	}
	ExportLink struct {
		Expires   time.Time  `json:"expires"`
		UsedAt    *time.Time `json:"usedAt"`
		CreatedAt time.Time  `json:"createdAt"`
	}
	ExportBlock struct {
		ID        string    `json:"id"`
		Name      string    `json:"name"`
		BlockedAt time.Time `json:"blockedAt"`
	}
	// ExportRenamed is the notice of the server's renaming of the player,
	// while they have not seen it.
	ExportRenamed struct {
		From string    `json:"from"`
		At   time.Time `json:"at"`
	}
	// ExportHead is the export but its games, which follow it one at a
	// time (ExportGame).
	ExportHead struct {
		ExportedAt time.Time      `json:"exportedAt"`
		Player     ExportPlayer   `json:"player"`
		Devices    []ExportDevice `json:"devices"`
		LinkCode   *ExportLink    `json:"linkCode"`
		Blocked    []ExportBlock  `json:"blocked"`
		Renamed    *ExportRenamed `json:"renamed"`
	}
	ExportSeat struct {
		Seat int    `json:"seat"`
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	ExportAction struct {
		Seq      int64           `json:"seq"`
		Seat     int             `json:"seat"`
		Action   json.RawMessage `json:"action"`
		ClientID string          `json:"clientId,omitempty"`
		At       time.Time       `json:"at"`
	}
	ExportGame struct {
		GameSummary
		Seats      []ExportSeat    `json:"seats"`
		Options    json.RawMessage `json:"options,omitempty"`
		Result     json.RawMessage `json:"result,omitempty"`
		SeriesGame int             `json:"seriesGame,omitempty"`
		Public     bool            `json:"public"`
		Actions    []ExportAction  `json:"actions"`
	}
)

// Export returns the head of a player's export and the games that follow
// it, the newest exportLimit of them, to be read one at a time with
// GameExport.
func (s *Service) Export(ctx context.Context, id string) (ExportHead, []store.Game, error) {
	me, err := s.st.Player(ctx, id)
	if err != nil {
		return ExportHead{}, nil, err
	}
	toks, err := s.st.Tokens(ctx, id)
	if err != nil {
		return ExportHead{}, nil, err
	}
	head := ExportHead{ExportedAt: s.clock(), Player: ExportPlayer{ID: me.ID, Name: me.Name, CreatedAt: me.CreatedAt},
		Devices: make([]ExportDevice, len(toks))}
	for i, t := range toks {
		head.Devices[i].SignedInAt = t.CreatedAt
	}
	switch c, err := s.st.LinkCode(ctx, id); {
	case err == nil:
		head.LinkCode = &ExportLink{Expires: c.Expires, CreatedAt: c.CreatedAt}
		if !c.UsedAt.IsZero() {
			head.LinkCode.UsedAt = &c.UsedAt
		}
	case !errors.Is(err, store.ErrNotFound):
		return ExportHead{}, nil, err
	}
	blocks, err := s.st.Blocks(ctx, id)
	if err != nil {
		return ExportHead{}, nil, err
	}
	switch rn, ok, err := s.Renamed(ctx, id); {
	case err != nil:
		return ExportHead{}, nil, err
	case ok:
		head.Renamed = &ExportRenamed{From: rn.From, At: rn.At}
	}
	head.Blocked = make([]ExportBlock, len(blocks))
	for i, b := range blocks {
		head.Blocked[i] = ExportBlock{ID: b.BlockedID, Name: b.BlockedName, BlockedAt: b.CreatedAt}
	}
	games, err := s.st.ListGames(ctx, store.GameQuery{Player: id, Limit: exportLimit})
	if err != nil {
		return ExportHead{}, nil, err
	}
	return head, games, nil
}

// GameExport is one game of player id's export, with its seats and its
// actions; a race still waiting or in play has no code and no actions yet
// (they would tell its deal), nor a daily challenge's game while its day
// is open, as everywhere else. names caches the seats' names.
func (s *Service) GameExport(ctx context.Context, g store.Game, id string, names map[string]string) (ExportGame, error) {
	eg := ExportGame{GameSummary: summarize(g, id, s.clock()), Options: g.Options, SeriesGame: g.SeriesGame,
		Public: g.Public, Seats: []ExportSeat{}, Actions: []ExportAction{}}
	if g.Kind == game.KindRace && g.Status == game.Over {
		eg.Result = g.Result
	}
	for i, pid := range g.Seats {
		if pid == "" {
			continue
		}
		name, ok := names[pid]
		if !ok {
			pl, err := s.st.Player(ctx, pid)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return eg, err
			}
			name, names[pid] = pl.Name, pl.Name
		}
		eg.Seats = append(eg.Seats, ExportSeat{Seat: i + 1, ID: pid, Name: name})
	}
	if eg.Code == "" {
		return eg, nil
	}
	acts, err := s.st.Actions(ctx, g.ID, 0)
	if err != nil {
		return eg, err
	}
	for _, a := range acts {
		eg.Actions = append(eg.Actions, ExportAction{Seq: a.Seq, Seat: a.Seat, Action: a.Action, ClientID: a.ClientID, At: a.At})
	}
	return eg, nil
}
