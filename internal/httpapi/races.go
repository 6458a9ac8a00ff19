package httpapi

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/go-chi/chi/v5"

	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/lobby"
	"dsol/internal/race"
	"dsol/internal/store"
	"dsol/internal/table"
)

// inviteBytes is the length of a race invite before encoding.
const inviteBytes = 16

// drawFirst draws the first seat of an alternating race once, from the
// server's random source; the engine checks it against the rule.
func (s *server) drawFirst(o *game.RaceOptions) error {
	if o.Turns != "alternating" {
		o.First, o.FirstSeat = "", 0
		return nil
	}
	var b [1]byte
	if _, err := io.ReadFull(s.random, b[:]); err != nil {
		return err
	}
	eo, err := table.EngineOptions(*o)
	if err != nil {
		return err
	}
	o.FirstSeat = eo.First.Seat(func() int { return int(b[0] & 1) })
	return nil
}

// createRace is POST /api/v1/races: a new race with the caller in seat 1 and,
// for a race against the computer, the server's bot in seat 2. The answer
// carries the secret invite, shown this once (only its hash is stored).
func (s *server) createRace(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	spec, err := raceBody(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	code, o, public := spec.code, spec.opts, spec.public
	if spec.random {
		if err := s.secretDeal(&code); err != nil {
			s.error(w, r, err)
			return
		}
	} else {
		o.Chosen = true
	}
	if o.Bot != "" {
		if err := s.ensureBot(r.Context()); err != nil {
			s.error(w, r, err)
			return
		}
	}
	if err := s.drawFirst(&o); err != nil {
		s.error(w, r, err)
		return
	}
	id, err := s.randomString(12)
	if err != nil {
		s.error(w, r, err)
		return
	}
	invite := ""
	var inviteHash []byte
	if o.Bot == "" {
		if invite, err = s.randomString(inviteBytes); err != nil {
			s.error(w, r, err)
			return
		}
		inviteHash = hashToken(invite)
	}
	g, err := s.newRace(id, code, o, [2]string{p.ID}, public, inviteHash, id, 1)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if err := s.store.CreateGame(r.Context(), g); err != nil {
		s.error(w, r, err)
		return
	}
	if g.Public {
		s.lobbyWS.Hub().Changed()
	}
	s.answerRace(w, r, http.StatusCreated, id, 1, invite)
}

// raceBody reads and checks the race options of a request's body (POST
// /api/v1/races, POST /api/v1/match).
func raceBody(r *http.Request) (raceSpec, error) {
	b, err := readBody(r)
	if err != nil {
		return raceSpec{}, err
	}
	return decodeCreateRace(b)
}

// saltBytes is the length of a race's secret salt.
const saltBytes = 16

// secretDeal gives a race code a secret deal (DR2) drawn from the server's
// random source: nobody can find it from the cards they see.
func (s *server) secretDeal(c *cards.Code) error {
	c.Secret, c.Deal = true, 0
	_, err := io.ReadFull(s.random, c.Key[:])
	return err
}

// deadDealTries bounds the redraws of liveDeal. Dead deals are not rare with
// draw 3 and mirrored decks (262 of 20,000 single-pass deals, 95 of 20,000
// unlimited; 8 of 20,000 with draw 1), but 64 in a row means a broken
// random source.
const deadDealTries = 64

// liveDeal checks the options with the engine, which has the last word on
// them. A deal the server chose itself is redrawn while it is dead on
// arrival: both seats blocked before the first move would end the race the
// moment it is created. A chosen code is played as it is.
func (s *server) liveDeal(code cards.Code, chosen bool, eo race.Options) (cards.Code, error) {
	for range deadDealTries {
		r, err := race.New(code, eo)
		if err != nil || chosen || !code.Secret || r.Status() != race.Over {
			return code, err
		}
		if err := s.secretDeal(&code); err != nil {
			return code, err
		}
	}
	return code, errors.New("the random source gave only dead deals")
}

// newRace builds a race header with a fresh secret salt; a bot race is
// playing from the start.
func (s *server) newRace(id string, code cards.Code, o game.RaceOptions, seats [2]string, public bool, invite []byte, series string, index int) (store.Game, error) {
	eo, err := table.EngineOptions(o)
	if err != nil {
		return store.Game{}, err
	}
	salt := make([]byte, saltBytes)
	if _, err := io.ReadFull(s.random, salt); err != nil {
		return store.Game{}, err
	}
	if code, err = s.liveDeal(code, o.Chosen, eo); err != nil {
		return store.Game{}, err
	}
	opts, err := json.Marshal(o)
	if err != nil {
		return store.Game{}, err
	}
	status := "waiting"
	if o.Bot != "" {
		seats[1] = table.BotPlayerID
	}
	if seats[1] != "" {
		status = "playing"
	}
	now := s.clock()
	return store.Game{ID: id, Kind: "race", Code: code.String(), Options: opts, Status: status,
		Seats: seats, Public: public && seats[1] == "", InviteHash: invite, SeriesID: series, SeriesGame: index,
		Salt: salt, CreatedAt: now, UpdatedAt: now}, nil
}

// ensureBot creates the bot's player row once per database. Its token hash
// is of random bytes nobody holds, so nobody can sign in as the bot.
func (s *server) ensureBot(ctx context.Context) error {
	_, err := s.store.Player(ctx, table.BotPlayerID)
	if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	secret, err := s.randomString(32)
	if err != nil {
		return err
	}
	err = s.store.CreatePlayer(ctx, store.Player{ID: table.BotPlayerID, Name: game.BotName,
		TokenHash: hashToken(secret), CreatedAt: s.clock()})
	if errors.Is(err, store.ErrConflict) {
		return nil // created meanwhile
	}
	return err
}

// answerRace writes a race view for a seat, with the invite when given.
func (s *server) answerRace(w http.ResponseWriter, r *http.Request, status int, id string, seat int, invite string) {
	_, view, err := s.tables.Preview(r.Context(), id, seat)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if v, ok := view.(table.RaceView); ok && invite != "" {
		v.Invite = invite
		view = v
	}
	if status == http.StatusCreated {
		w.Header().Set("Location", "/api/v1/games/"+id)
	}
	writeJSON(w, status, view)
}

// raceHeader loads the race of the {id} in the path.
func (s *server) raceHeader(r *http.Request) (store.Game, error) {
	g, err := s.store.Game(r.Context(), chi.URLParam(r, "id"))
	if errors.Is(err, store.ErrNotFound) || (err == nil && g.Kind != "race") {
		return store.Game{}, game.Errorf(game.NotFound, "no such race")
	}
	return g, err
}

// joinRace is POST /api/v1/races/{id}/join {"invite"}: seat 2. A public race
// needs no invite. The creator cannot join their own race, nor can a third
// player (409); a wrong invite is 403, and so is a race of a player the
// caller blocked or was blocked by. Joining again as seat 2 answers the
// view.
func (s *server) joinRace(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	b, err := readBody(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	invite, err := decodeJoin(b)
	if err != nil {
		s.error(w, r, err)
		return
	}
	g, err := s.raceHeader(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	switch {
	case g.Seats[0] == p.ID:
		s.error(w, r, game.Errorf(game.Conflict, "this is your own race: share its invite with your opponent"))
		return
	case g.Seats[1] == p.ID:
		s.answerRace(w, r, http.StatusOK, g.ID, 2, "")
		return
	case g.Seats[1] != "":
		s.error(w, r, game.Errorf(game.Conflict, "the race already has two players"))
		return
	case g.Status != "waiting":
		s.error(w, r, game.Errorf(game.Conflict, "the race was cancelled by its creator"))
		return
	}
	if err := s.checkNotBlocked(r.Context(), p.ID, g.Seats[0]); err != nil {
		s.error(w, r, err)
		return
	}
	if invite != nil {
		if len(g.InviteHash) == 0 || subtle.ConstantTimeCompare(hashToken(*invite), g.InviteHash) != 1 {
			s.error(w, r, game.Errorf(game.Forbidden, "this invite does not open the race"))
			return
		}
	} else if !g.Public {
		s.error(w, r, game.Errorf(game.Forbidden, "this race is private: join it with its invite"))
		return
	}
	if err := s.store.JoinGame(r.Context(), g.ID, p.ID, s.clock()); err != nil {
		if errors.Is(err, store.ErrConflict) {
			err = game.Errorf(game.Conflict, "the race already has two players")
		}
		s.error(w, r, err)
		return
	}
	if g.Public {
		s.lobbyWS.Hub().Changed()
	}
	if err := s.tables.Joined(r.Context(), g.ID); err != nil {
		s.error(w, r, err)
		return
	}
	s.answerRace(w, r, http.StatusOK, g.ID, 2, "")
}

// lobby is GET /api/v1/lobby: the public races waiting for a second player,
// oldest first, but those of players the caller blocked or was blocked by
// (lobby.Race; the lobby socket sends the same list).
func (s *server) lobby(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	l, err := s.lobbyWS.Hub().List(r.Context())
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Races []lobby.Race `json:"races"`
	}{l.For(p.ID)})
}

// rematch is POST /api/v1/races/{id}/rematch: once the race is over, a
// player offers the next game of its series (same series id, the next
// index, a new secret deal and salt), or a new series of the same settings
// when this one is done, and the other player accepts it the same way. The
// first ask creates the next race, waiting (no clock, no grace), and the
// finished race shows the offer; the second ask starts it. Both keep their
// seats. A race against the bot starts at once: the bot always
// accepts. 201 when this call created the race, 200 after; 409 when the
// offer was declined; 403 between players of whom either blocked the
// other (offering and accepting alike; declining stays open).
func (s *server) rematch(w http.ResponseWriter, r *http.Request) {
	g, seat, err := s.finishedRace(r, "ask for a rematch")
	if err != nil {
		s.error(w, r, err)
		return
	}
	if err := s.checkNotBlocked(r.Context(), g.Seats[seat-1], g.Seats[2-seat]); err != nil {
		s.error(w, r, err)
		return
	}
	next := table.NextRaceID(g.ID)
	ng, err := s.store.Game(r.Context(), next)
	switch {
	case errors.Is(err, store.ErrNotFound) && g.Seats[2-seat] == store.DeletedPlayerID:
		s.error(w, r, game.Errorf(game.Conflict, "your opponent deleted their data: start a new race"))
	case errors.Is(err, store.ErrNotFound):
		s.offerRematch(w, r, g, seat)
	case err != nil:
		s.error(w, r, err)
	case ng.Status == "over" && len(ng.Result) == 0: // ended without a result: declined
		s.error(w, r, game.Errorf(game.Conflict, "the rematch was declined"))
	case ng.Status != "waiting" || rematchOffer(ng) == seat:
		s.answerRace(w, r, http.StatusOK, next, seat, "") // started, or asked again
	case !s.clock().Before(ng.CreatedAt.Add(s.tables.RematchTimeout())): // its table had no time to end it
		s.error(w, r, game.Errorf(game.Conflict, "the rematch offer lapsed"))
	default: // the opponent offered it: accept
		ng.Status, ng.UpdatedAt = "playing", s.clock()
		if err := s.store.UpdateGame(r.Context(), ng); err != nil {
			s.error(w, r, err)
			return
		}
		s.rematchChanged(w, r, g.ID, next, seat, http.StatusOK)
	}
}

// finishedRace is the race of the request and the caller's seat in it,
// for what only its players may do once it is over (ask for a rematch,
// decline one): refused to anyone else, before the race is over, and after
// it was cancelled.
func (s *server) finishedRace(r *http.Request, what string) (store.Game, int, error) {
	p, _ := playerOf(r.Context())
	g, err := s.raceHeader(r)
	if err != nil {
		return g, 0, err
	}
	seat := seatOf(g, p.ID)
	if seat == 0 {
		return g, 0, game.Errorf(game.Forbidden, "only the players of a race can %s", what)
	}
	_, view, err := s.tables.Preview(r.Context(), g.ID, seat)
	if err != nil {
		return g, 0, err
	}
	if v, ok := view.(table.RaceView); !ok || v.Status != "over" {
		return g, 0, game.Errorf(game.Conflict, "the race is not over yet")
	} else if v.Cancelled {
		return g, 0, game.Errorf(game.Conflict, "the race was cancelled: create a new one")
	}
	return g, seat, nil
}

// rematchOffer returns the seat that offered a waiting rematch (0: none).
func rematchOffer(g store.Game) int {
	o, _ := game.ParseRaceOptions(g.Options)
	return o.OfferedBy
}

// offerRematch creates the race offered after g by seat, waiting for the
// opponent (against the bot it starts at once: the bot always accepts).
func (s *server) offerRematch(w http.ResponseWriter, r *http.Request, g store.Game, seat int) {
	next := table.NextRaceID(g.ID)
	o, err := game.ParseRaceOptions(g.Options)
	if err != nil {
		s.error(w, r, err)
		return
	}
	series, index := next, 1
	o.Prev, o.Chosen = "", false
	if g.SeriesGame < o.Series {
		series, index, o.Prev = g.SeriesID, g.SeriesGame+1, g.ID
	}
	if o.Bot == "" {
		o.RematchOf, o.OfferedBy = g.ID, seat
	}
	code, err := cards.ParseCode(g.Code)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if err := s.secretDeal(&code); err != nil {
		s.error(w, r, err)
		return
	}
	if err := s.drawFirst(&o); err != nil {
		s.error(w, r, err)
		return
	}
	ng, err := s.newRace(next, code, o, g.Seats, false, nil, series, index)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if o.OfferedBy != 0 {
		ng.Status = "waiting" // until the opponent accepts
	}
	status := http.StatusCreated
	if err := s.store.CreateGame(r.Context(), ng); errors.Is(err, store.ErrConflict) {
		status = http.StatusOK // the other player asked at the same moment: ask again to accept
	} else if err != nil {
		s.error(w, r, err)
		return
	}
	s.rematchChanged(w, r, g.ID, next, seat, status)
}

// rematchChanged tells the tables of both races that the rematch changed
// and answers with the next race.
func (s *server) rematchChanged(w http.ResponseWriter, r *http.Request, old, next string, seat, status int) {
	if err := s.tables.Joined(r.Context(), next); err != nil && !errors.Is(err, store.ErrNotFound) {
		s.error(w, r, err)
		return
	}
	if err := s.tables.RematchChanged(r.Context(), old); err != nil {
		s.error(w, r, err)
		return
	}
	s.answerRace(w, r, status, next, seat, "")
}

// declineRematch is POST /api/v1/races/{id}/decline: the player of a
// finished race declines the rematch the opponent offered after it. The
// offered race ends as a cancelled one; both races say so.
func (s *server) declineRematch(w http.ResponseWriter, r *http.Request) {
	g, seat, err := s.finishedRace(r, "decline its rematch")
	if err != nil {
		s.error(w, r, err)
		return
	}
	next := table.NextRaceID(g.ID)
	ng, err := s.store.Game(r.Context(), next)
	switch {
	case errors.Is(err, store.ErrNotFound):
		err = game.Errorf(game.Conflict, "no rematch was offered")
	case err != nil:
	case ng.Status != "waiting":
		err = game.Errorf(game.Conflict, "the rematch is not waiting for an answer any more")
	case rematchOffer(ng) == seat:
		err = game.Errorf(game.Conflict, "you offered this rematch: your opponent may decline it")
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	ng.Status, ng.UpdatedAt = "over", s.clock()
	if err := s.store.UpdateGame(r.Context(), ng); err != nil {
		s.error(w, r, err)
		return
	}
	if err := s.tables.Cancelled(r.Context(), next); err != nil {
		s.error(w, r, err)
		return
	}
	if err := s.tables.RematchChanged(r.Context(), g.ID); err != nil {
		s.error(w, r, err)
		return
	}
	s.answerRace(w, r, http.StatusOK, g.ID, seat, "")
}
