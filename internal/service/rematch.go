package service

import (
	"context"
	"errors"

	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/live"
	"dsol/internal/protocol"
	"dsol/internal/store"
)

// finishedRace is the race id and player's seat in it, for what only its
// players may do once it is over (ask for a rematch, decline one): refused
// to anyone else, before the race is over, and after it was cancelled.
func (s *Service) finishedRace(ctx context.Context, id, player, what string) (store.Game, int, error) {
	g, err := s.raceHeader(ctx, id)
	if err != nil {
		return g, 0, err
	}
	seat := game.SeatOf(g.Seats, player)
	if seat == 0 {
		return g, 0, game.Errorf(game.Forbidden, "only the players of a race can %s", what)
	}
	v, err := s.raceView(ctx, g.ID, seat)
	switch {
	case err != nil:
		return g, 0, err
	case v.Status != game.Over:
		return g, 0, game.Errorf(game.Conflict, "the race is not over yet")
	case v.Cancelled:
		return g, 0, game.Errorf(game.Conflict, "the race was cancelled: create a new one")
	}
	return g, seat, nil
}

// rematchOffer returns the seat that offered a waiting rematch (0: none).
func rematchOffer(g store.Game) int {
	o, _ := game.ParseRaceOptions(g.Options)
	return o.OfferedBy
}

// Rematch is a player's ask for a rematch once race id is over: the next
// game of its series (same series id, the next index, a new secret deal
// and salt), or a new series of the same settings when this one is done.
// The first ask creates the next race, waiting (no clock, no grace), and
// the finished race shows the offer; the other player's ask, on the next
// race's table, starts it. Both keep their seats. A race against the bot
// starts at once: the bot always accepts. It returns the player's view of
// the next race and whether this call created it; 409 when the offer was
// declined or lapsed; 403 between players of whom either blocked the other
// (offering and accepting alike; declining stays open).
func (s *Service) Rematch(ctx context.Context, id, player string) (protocol.RaceView, bool, error) {
	g, seat, err := s.finishedRace(ctx, id, player, "ask for a rematch")
	if err != nil {
		return protocol.RaceView{}, false, err
	}
	if o, _ := game.ParseRaceOptions(g.Options); o.Arena != "" {
		return protocol.RaceView{}, false, game.Errorf(game.Conflict, "an arena's race has no rematch: the arena pairs you again")
	}
	if err := s.checkNotBlocked(ctx, g.Seats[seat-1], g.Seats[2-seat]); err != nil {
		return protocol.RaceView{}, false, err
	}
	next := game.NextRaceID(g.ID)
	ng, err := s.store.Game(ctx, next)
	switch {
	case errors.Is(err, store.ErrNotFound) && g.Seats[2-seat] == store.DeletedPlayerID:
		return protocol.RaceView{}, false, game.Errorf(game.Conflict, "your opponent deleted their data: start a new race")
	case errors.Is(err, store.ErrNotFound):
		return s.offerRematch(ctx, g, seat)
	case err != nil:
		return protocol.RaceView{}, false, err
	}
	if err := s.rematchAnswer(ng, seat); err != nil {
		return protocol.RaceView{}, false, err
	}
	if ng.Status != game.Waiting || rematchOffer(ng) == seat {
		v, err := s.raceView(ctx, next, seat) // started, or asked again
		return v, false, err
	}
	// The opponent offered it: accept, on the next race's table, where its
	// offer may lapse meanwhile.
	accepted := false
	err = s.tables.InTable(ctx, next, func(t *live.Table) error {
		ng, err := s.store.Game(ctx, next)
		if err != nil {
			return err
		}
		if err := s.rematchAnswer(ng, seat); err != nil || ng.Status != game.Waiting || rematchOffer(ng) == seat {
			return err
		}
		ng.Status, ng.UpdatedAt = game.Playing, s.clock()
		if err := s.store.UpdateGame(ctx, ng); err != nil {
			return err
		}
		accepted = true
		if t == nil {
			return nil
		}
		return t.Reread(ctx, live.Joined)
	})
	if err != nil {
		return protocol.RaceView{}, false, err
	}
	if accepted {
		if err := s.tables.RematchChanged(ctx, g.ID); err != nil {
			return protocol.RaceView{}, false, err
		}
	}
	v, err := s.raceView(ctx, next, seat)
	return v, false, err
}

// rematchAnswer refuses an ask for the rematch ng that ended without a
// result (declined) or whose offer has lapsed by the clock (its table had
// no time to end it).
func (s *Service) rematchAnswer(ng store.Game, seat int) error {
	switch {
	case ng.Status == game.Over && len(ng.Result) == 0:
		return game.Errorf(game.Conflict, "the rematch was declined")
	case ng.Status != game.Waiting || rematchOffer(ng) == seat:
		return nil
	case !s.clock().Before(ng.CreatedAt.Add(s.tables.RematchTimeout())):
		return game.Errorf(game.Conflict, "the rematch offer lapsed")
	}
	return nil
}

// offerRematch creates the race offered after g by seat, waiting for the
// opponent (against the bot it starts at once: the bot always accepts), and
// tells both races' tables.
func (s *Service) offerRematch(ctx context.Context, g store.Game, seat int) (protocol.RaceView, bool, error) {
	next := game.NextRaceID(g.ID)
	o, err := game.ParseRaceOptions(g.Options)
	if err != nil {
		return protocol.RaceView{}, false, err
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
		return protocol.RaceView{}, false, err
	}
	if err := s.secretDeal(&code); err != nil {
		return protocol.RaceView{}, false, err
	}
	if err := s.drawFirst(&o); err != nil {
		return protocol.RaceView{}, false, err
	}
	ng, err := s.newRace(next, code, o, g.Seats, false, nil, series, index)
	if err != nil {
		return protocol.RaceView{}, false, err
	}
	if o.OfferedBy != 0 {
		ng.Status = game.Waiting // until the opponent accepts
	}
	created := true
	if err := s.store.CreateGame(ctx, ng); errors.Is(err, store.ErrConflict) {
		created = false // the other player asked at the same moment: ask again to accept
	} else if err != nil {
		return protocol.RaceView{}, false, err
	}
	if err := s.tables.HeaderChanged(ctx, next, live.Joined); err != nil && !errors.Is(err, store.ErrNotFound) {
		return protocol.RaceView{}, false, err
	}
	if err := s.tables.RematchChanged(ctx, g.ID); err != nil {
		return protocol.RaceView{}, false, err
	}
	v, err := s.raceView(ctx, next, seat)
	return v, created, err
}

// Decline is a player's no to the rematch their opponent offered after
// race id, on the offered race's table: it ends as a cancelled one, and
// both races say so. It answers the player's view of race id.
func (s *Service) Decline(ctx context.Context, id, player string) (protocol.RaceView, error) {
	g, seat, err := s.finishedRace(ctx, id, player, "decline its rematch")
	if err != nil {
		return protocol.RaceView{}, err
	}
	next := game.NextRaceID(g.ID)
	check := func(ng store.Game, err error) error {
		switch {
		case errors.Is(err, store.ErrNotFound):
			return game.Errorf(game.Conflict, "no rematch was offered")
		case err != nil:
			return err
		case ng.Status != game.Waiting:
			return game.Errorf(game.Conflict, "the rematch is not waiting for an answer any more")
		case rematchOffer(ng) == seat:
			return game.Errorf(game.Conflict, "you offered this rematch: your opponent may decline it")
		}
		return nil
	}
	if err := check(s.store.Game(ctx, next)); err != nil {
		return protocol.RaceView{}, err
	}
	err = s.tables.InTable(ctx, next, func(t *live.Table) error {
		ng, err := s.store.Game(ctx, next)
		if err := check(ng, err); err != nil {
			return err
		}
		ng.Status, ng.UpdatedAt = game.Over, s.clock()
		if err := s.store.UpdateGame(ctx, ng); err != nil {
			return err
		}
		if t == nil {
			return nil
		}
		return t.Reread(ctx, live.Cancelled)
	})
	if err != nil {
		return protocol.RaceView{}, err
	}
	if err := s.tables.RematchChanged(ctx, g.ID); err != nil {
		return protocol.RaceView{}, err
	}
	return s.raceView(ctx, g.ID, seat)
}
