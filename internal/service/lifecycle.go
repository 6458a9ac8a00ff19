package service

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"

	"dsol/internal/cards"
	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/live"
	"dsol/internal/protocol"
	"dsol/internal/race"
	"dsol/internal/store"
)

// The life of a race, as the game service runs it: created (no table is
// started: the node the race's requests are routed to takes it on the
// first of them), joined or cancelled while it waits, then, once over,
// offered again as a rematch, which the other player accepts or declines.
// What changes a race that may be live runs on its table (inTable).

// RaceSpec is a checked request for a new race: its code (with Random, the
// server draws its deal), its options before the first seat is drawn, and
// whether the race is listed in the lobby.
type RaceSpec struct {
	Code    cards.Code
	Random  bool
	Options game.RaceOptions
	Public  bool
}

// BotSpeeds lists the words of the bot's levels (race.Speeds), for the
// documentation and its tests.
func BotSpeeds() []string {
	var words []string
	for _, s := range race.Speeds() {
		words = append(words, s.String())
	}
	return words
}

// CheckBot refuses, with bad_request, a bot speed the engine does not have.
func CheckBot(speed string) error {
	if _, ok := race.ParseSpeed(speed); !ok || speed == "" {
		words := BotSpeeds()
		for i, w := range words {
			words[i] = strconv.Quote(w)
		}
		return game.Errorf(game.BadRequest, "bot must be %s or %s", strings.Join(words[:len(words)-1], ", "), words[len(words)-1])
	}
	return nil
}

// hashSecret returns the stored form of a secret (an invite, the bot's
// token): its SHA-256.
func hashSecret(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// inviteBytes is the length of a race invite before encoding.
const inviteBytes = 16

// drawFirst draws the first seat of an alternating race once, from the
// registry's random source; the engine checks it against the rule.
func (s *Service) drawFirst(o *game.RaceOptions) error {
	if o.Turns != "alternating" {
		o.First, o.FirstSeat = "", 0
		return nil
	}
	var b [1]byte
	if _, err := io.ReadFull(s.random, b[:]); err != nil {
		return err
	}
	eo, err := engine.RaceOptions(*o)
	if err != nil {
		return err
	}
	o.FirstSeat = eo.First.Seat(func() int { return int(b[0] & 1) })
	return nil
}

// CreateRace creates a race with player in seat 1 and, for a race against
// the computer, the server's bot in seat 2, and returns the creator's view
// with the secret invite, shown this once (only its hash is stored).
func (s *Service) CreateRace(ctx context.Context, player string, spec RaceSpec) (protocol.RaceView, error) {
	code, o, public := spec.Code, spec.Options, spec.Public
	if spec.Random {
		if err := s.secretDeal(&code); err != nil {
			return protocol.RaceView{}, err
		}
	} else {
		o.Chosen = true
	}
	if o.Bot != "" {
		if err := s.ensureBot(ctx); err != nil {
			return protocol.RaceView{}, err
		}
	}
	if err := s.drawFirst(&o); err != nil {
		return protocol.RaceView{}, err
	}
	id, err := s.randomString(12)
	if err != nil {
		return protocol.RaceView{}, err
	}
	invite := ""
	var inviteHash []byte
	if o.Bot == "" {
		if invite, err = s.randomString(inviteBytes); err != nil {
			return protocol.RaceView{}, err
		}
		inviteHash = hashSecret(invite)
	}
	g, err := s.newRace(id, code, o, [2]string{player}, public, inviteHash, id, 1)
	if err != nil {
		return protocol.RaceView{}, err
	}
	if err := s.store.CreateGame(ctx, g); err != nil {
		return protocol.RaceView{}, err
	}
	if g.Public {
		s.lobbyChanged()
	}
	v, err := s.raceView(ctx, id, 1)
	v.Invite = invite
	return v, err
}

// raceView is a seat's view of a race (Preview: no table is started for
// it).
func (s *Service) raceView(ctx context.Context, id string, seat int) (protocol.RaceView, error) {
	_, v, err := s.tables.Preview(ctx, id, seat)
	if err != nil {
		return protocol.RaceView{}, err
	}
	rv, ok := v.(protocol.RaceView)
	if !ok {
		return protocol.RaceView{}, game.Errorf(game.NotFound, "no such race")
	}
	return rv, nil
}

// saltBytes is the length of a race's secret salt.
const saltBytes = 16

// secretDeal gives a race code a secret deal (DR2) drawn from the
// registry's random source: nobody can find it from the cards they see.
func (s *Service) secretDeal(c *cards.Code) error {
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
func (s *Service) liveDeal(code cards.Code, chosen bool, eo race.Options) (cards.Code, error) {
	for range deadDealTries {
		rc, err := race.New(code, eo)
		if err != nil || chosen || !code.Secret || rc.Status() != race.Over {
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
func (s *Service) newRace(id string, code cards.Code, o game.RaceOptions, seats [2]string, public bool, invite []byte, series string, index int) (store.Game, error) {
	eo, err := engine.RaceOptions(o)
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
	status := game.Waiting
	if o.Bot != "" {
		seats[1] = store.BotPlayerID
	}
	if seats[1] != "" {
		status = game.Playing
	}
	now := s.clock()
	return store.Game{ID: id, Kind: game.KindRace, Code: code.String(), Options: opts, Status: status,
		Seats: seats, Public: public && seats[1] == "", InviteHash: invite, SeriesID: series, SeriesGame: index,
		Salt: salt, CreatedAt: now, UpdatedAt: now}, nil
}

// ensureBot creates the bot's player row once per database. Its token hash
// is of random bytes nobody holds, so nobody can sign in as the bot.
func (s *Service) ensureBot(ctx context.Context) error {
	_, err := s.store.Player(ctx, store.BotPlayerID)
	if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	secret, err := s.randomString(32)
	if err != nil {
		return err
	}
	err = s.store.CreatePlayer(ctx, store.Player{ID: store.BotPlayerID, Name: game.BotName,
		TokenHash: hashSecret(secret), CreatedAt: s.clock()})
	if errors.Is(err, store.ErrConflict) {
		return nil // created meanwhile
	}
	return err
}

// raceHeader reads the header of race id.
func (s *Service) raceHeader(ctx context.Context, id string) (store.Game, error) {
	g, err := s.store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && g.Kind != game.KindRace) {
		return store.Game{}, game.Errorf(game.NotFound, "no such race")
	}
	return g, err
}

// Join seats player in seat 2 of a race waiting for them, on the race's
// table: the header is read, checked and written there, and the table
// starts the race. A public race needs no invite. The creator cannot join
// their own race, nor can a third player (409); a wrong invite is 403, and
// so is a race of a player the caller blocked or was blocked by. Joining
// again as seat 2 answers the view.
func (s *Service) Join(ctx context.Context, id, player string, invite *string) (protocol.RaceView, error) {
	if _, err := s.raceHeader(ctx, id); err != nil {
		return protocol.RaceView{}, err
	}
	err := s.tables.InTable(ctx, id, func(t *live.Table) error {
		g, err := s.raceHeader(ctx, id)
		if err != nil {
			return err
		}
		switch {
		case g.Seats[0] == player:
			return game.Errorf(game.Conflict, "this is your own race: share its invite with your opponent")
		case g.Seats[1] == player:
			return nil // joined already
		case g.Seats[1] != "":
			return game.Errorf(game.Conflict, "the race already has two players")
		case g.Status != game.Waiting:
			return game.Errorf(game.Conflict, "the race was cancelled by its creator")
		}
		if err := s.checkNotBlocked(ctx, player, g.Seats[0]); err != nil {
			return err
		}
		if invite == nil { // from the lobby: one race at a time
			if err := s.notInRace(ctx, player, g.ID, "you have a race in play: finish it before you join another"); err != nil {
				return err
			}
		}
		if invite != nil {
			if len(g.InviteHash) == 0 || subtle.ConstantTimeCompare(hashSecret(*invite), g.InviteHash) != 1 {
				return game.Errorf(game.Forbidden, "this invite does not open the race")
			}
		} else if !g.Public {
			return game.Errorf(game.Forbidden, "this race is private: join it with its invite")
		}
		if err := s.store.JoinGame(ctx, g.ID, player, s.clock()); err != nil {
			if errors.Is(err, store.ErrConflict) {
				err = game.Errorf(game.Conflict, "the race already has two players")
			}
			return err
		}
		if g.Public {
			s.lobbyChanged()
		}
		if t == nil {
			return nil
		}
		return t.Reread(ctx, live.Joined)
	})
	if err != nil {
		return protocol.RaceView{}, err
	}
	return s.raceView(ctx, id, 2)
}

// Cancel ends a race its creator cancels while it still waits for a second
// player, on the race's table: it becomes "over" with no result
// ("cancelled": true in its view), leaves the lobby and takes no join any
// more; its subscribers get {"type": "over"}. Cancelling again answers the
// view; 403 for anybody but the creator, 409 once a second player has
// joined.
func (s *Service) Cancel(ctx context.Context, id, player string) (protocol.RaceView, error) {
	g, err := s.raceHeader(ctx, id)
	if err != nil {
		return protocol.RaceView{}, err
	}
	if g.Seats[0] != player {
		return protocol.RaceView{}, game.Errorf(game.Forbidden, "only the creator of a race can cancel it")
	}
	err = s.tables.InTable(ctx, id, func(t *live.Table) error {
		err := s.store.CancelRace(ctx, g.ID, player, s.clock())
		if errors.Is(err, store.ErrConflict) {
			if g, err = s.store.Game(ctx, g.ID); err == nil && !(g.Status == game.Over && g.Seats[1] == "") {
				err = game.Errorf(game.Conflict, "the race has started: it can only be resigned now")
			}
		}
		if err != nil {
			return err
		}
		if g.Public {
			s.lobbyChanged()
		}
		if t == nil {
			return nil
		}
		return t.Reread(ctx, live.Cancelled)
	})
	if err != nil {
		return protocol.RaceView{}, err
	}
	return s.raceView(ctx, id, 1)
}
