package service

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"

	"dsol/internal/game"
	"dsol/internal/matchmaking"
	"dsol/internal/protocol"
	"dsol/internal/store"
)

// match puts a player in the quick-match queue, or pairs them at once,
// once this node holds the queue's lease: an *ownership.ElsewhereError
// means another node runs the queue.
func (s *Service) match(ctx context.Context, e matchmaking.Entry) (string, error) {
	if err := s.owner.Acquire(ctx, matchmaking.ID); err != nil {
		return "", err
	}
	return s.queue.Join(ctx, e)
}

// ErrNotQueued answers a match socket or a leave of a player not in the
// queue.
var ErrNotQueued = matchmaking.ErrNotQueued

// Unmatch takes a player out of the quick-match queue (ErrNotQueued when
// not in it).
func (s *Service) Unmatch(player string) error { return s.queue.Leave(player) }

// MatchWatch follows a player's place in the quick-match queue (see
// matchmaking.Queue.Watch).
func (s *Service) MatchWatch(player string) (<-chan []byte, func(), error) {
	return s.queue.Watch(player)
}

// MatchBlocked tells the quick-match queue that a blocked b: the two are
// never paired from now on.
func (s *Service) MatchBlocked(a, b string) { s.queue.Blocked(a, b) }

// MatchWaiting returns how many players wait for a quick match.
func (s *Service) MatchWaiting() int { return s.queue.Waiting() }

// SweepQueue pairs the waiting players whose windows widened enough (the
// queue does so every matchmaking.SweepEvery by itself).
func (s *Service) SweepQueue(ctx context.Context) { s.queue.Sweep(ctx) }

// QuickMatch puts a player in the match queue for a race of spec's
// options, or pairs them at once (Match): it returns the new race's id and
// the player's view, seat 2, or "" while they wait. Players of whom either
// blocked the other never pair.
func (s *Service) QuickMatch(ctx context.Context, player string, spec RaceSpec) (string, protocol.RaceView, error) {
	if err := s.notInRace(ctx, player, "", "you have a race in play: finish it before you look for another"); err != nil {
		return "", protocol.RaceView{}, err
	}
	rt, err := s.store.Rating(ctx, player)
	if err != nil {
		return "", protocol.RaceView{}, err
	}
	avoid, err := s.blocksOf(ctx, player)
	if err != nil {
		return "", protocol.RaceView{}, err
	}
	key, err := json.Marshal(spec.Options)
	if err != nil {
		return "", protocol.RaceView{}, err
	}
	c := spec.Code
	id, err := s.match(ctx, matchmaking.Entry{Player: player, Rating: rt.Rating, Options: spec, Avoid: avoid,
		Key: fmt.Sprintf("D%d single=%v mirrored=%v %s", c.Draw, c.Single, c.Mirrored, key)})
	if err != nil || id == "" {
		return "", protocol.RaceView{}, err
	}
	v, err := s.raceView(ctx, id, 2)
	return id, v, err
}

// pairRace creates the race of two paired players (the registry's
// MatchPair): a server-dealt race of the options they asked for, both
// seated and playing, private, a series of its own; a *matchmaking.BusyError when one
// of them has a race in play meanwhile (one race at a time).
func (s *Service) pairRace(ctx context.Context, first, second matchmaking.Entry) (string, error) {
	spec, ok := first.Options.(RaceSpec)
	if !ok {
		return "", fmt.Errorf("table: quick match options of type %T", first.Options)
	}
	if p, race, err := s.inRace(ctx, first.Player, second.Player); err != nil || race != "" {
		return "", cmp.Or(err, error(&matchmaking.BusyError{Player: p, Race: race}))
	}
	code, o := spec.Code, spec.Options
	if err := s.secretDeal(&code); err != nil {
		return "", err
	}
	if err := s.drawFirst(&o); err != nil {
		return "", err
	}
	id, err := s.randomString(12)
	if err != nil {
		return "", err
	}
	g, err := s.newRace(id, code, o, [2]string{first.Player, second.Player}, false, nil, id, 1)
	if err != nil {
		return "", err
	}
	if err := s.store.CreateGame(ctx, g); err != nil {
		return "", err
	}
	return id, nil
}

// raceInPlay returns the id of a race other than except that player holds
// a seat of and that is in play, or "".
func (s *Service) raceInPlay(ctx context.Context, player, except string) (string, error) {
	gs, err := s.store.ListGames(ctx, store.GameQuery{Player: player, Kind: game.KindRace, Status: game.Playing, Limit: 2})
	if err != nil {
		return "", err
	}
	for _, g := range gs {
		if g.ID != except {
			return g.ID, nil
		}
	}
	return "", nil
}

// inRace returns the first of players who has a race in play, and that
// race ("": none): one race at a time, checked before pairing them.
func (s *Service) inRace(ctx context.Context, players ...string) (player, race string, err error) {
	for _, p := range players {
		if race, err := s.raceInPlay(ctx, p, ""); err != nil || race != "" {
			return p, race, err
		}
	}
	return "", "", nil
}

// notInRace refuses, with msg, a player who has a race in play other than
// except: quick match and the lobby seat a player in one race at a time.
// The refusal names the race, so that their client can go back to it.
func (s *Service) notInRace(ctx context.Context, player, except, msg string) error {
	race, err := s.raceInPlay(ctx, player, except)
	if err != nil || race == "" {
		return err
	}
	return &game.Error{Code: game.Conflict, Msg: msg, Game: race}
}
