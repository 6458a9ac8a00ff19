package service

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"time"

	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/live"
	"dsol/internal/protocol"
	"dsol/internal/store"
	"dsol/internal/winnable"
)

// The game service. The transports (REST and the WebSocket sessions) call
// the live.Registry for everything they do with games, by game id and player
// id: create a game, join, cancel or rematch a race, act, follow and look
// at a game, ask for a hint. Each call writes the store for what it does
// and changes a live game on that game's table, in its goroutine, so that a
// race's header and its live state change in one place. Errors are
// *game.Error or map to one with AsError.

// open finds the table of a game for a player and their seat (0: a
// spectator of a race). Solo games are private: anyone but the owner is
// refused.
func (s *Service) open(ctx context.Context, id, player string) (*live.Table, int, error) {
	t, err := s.tables.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, 0, game.Errorf(game.NotFound, "no such game")
	}
	if err != nil {
		return nil, 0, err
	}
	g := t.Game()
	seat := game.SeatOf(g.Seats, player)
	if seat == 0 && g.Kind == game.KindSolo {
		return nil, 0, game.Errorf(game.Forbidden, "this game is not yours")
	}
	return t, seat, nil
}

// PlayerView returns a player's view of a game: their seat's, or a
// spectator's of a race.
func (s *Service) PlayerView(ctx context.Context, id, player string) (protocol.View, error) {
	t, seat, err := s.open(ctx, id, player)
	if err != nil {
		return nil, err
	}
	_, v, err := s.tables.Snapshot(ctx, t.ID(), seat)
	return v, err
}

// Act applies one action of a player, read from envelope (the JSON
// envelope of DecodeCommand) once the player's seat is known, and returns
// once it is durable. The result's view is the player's right after it (for
// a resent action id, the current view).
func (s *Service) Act(ctx context.Context, id, player string, envelope io.Reader) (protocol.Result, error) {
	t, seat, err := s.open(ctx, id, player)
	if err != nil {
		return protocol.Result{}, err
	}
	if seat == 0 {
		return protocol.Result{}, game.Errorf(game.Forbidden, "spectators cannot play")
	}
	b, err := io.ReadAll(envelope)
	if err != nil {
		return protocol.Result{}, err
	}
	cmd, err := protocol.DecodeCommand(b, false)
	if err != nil {
		if s.action != nil {
			s.action("", string(protocol.AsError(err).Code))
		}
		return protocol.Result{}, err
	}
	cmd.Seat = seat
	return s.tables.Do(ctx, t.ID(), cmd)
}

// Follow subscribes a player to a game (see Table.Subscribe): as their
// seat, or as a spectator of a race.
func (s *Service) Follow(ctx context.Context, id, player string, since int64) (protocol.Feed, error) {
	for {
		t, seat, err := s.open(ctx, id, player)
		if err != nil {
			return nil, err
		}
		sub, err := t.Subscribe(ctx, seat, since)
		if errors.Is(err, protocol.ErrStopped) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return sub, nil
	}
}

// Resubscribe follows a game again as viewer (a seat, or 0 for a
// spectator), once the feed before ended (its table stopped or reloaded),
// from since (see Table.Subscribe).
func (s *Service) Resubscribe(ctx context.Context, id string, viewer int, since int64) (protocol.Feed, error) {
	for {
		t, err := s.tables.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		sub, err := t.Subscribe(ctx, viewer, since)
		if errors.Is(err, protocol.ErrStopped) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return sub, nil
	}
}

// resignLimit bounds the games ResignAll looks at: the newest ones, as many
// as the export of a player's data holds.
const resignLimit = 10000

// ResignAll resigns a player's races in play, whose opponents win, before
// the player deletes their data; it returns the ids of the player's games
// (the newest resignLimit). A race whose table another node runs is
// unavailable while it moves here: retry.
func (s *Service) ResignAll(ctx context.Context, player string) ([]string, error) {
	games, err := s.store.ListGames(ctx, store.GameQuery{Player: player, Limit: resignLimit})
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(games))
	for i, g := range games {
		ids[i] = g.ID
		if g.Kind != game.KindRace || g.Status != game.Playing {
			continue
		}
		_, err := s.tables.Do(ctx, g.ID, protocol.Command{Seat: game.SeatOf(g.Seats, player), Action: klondike.Simple(klondike.Resign)})
		if c := protocol.AsError(err); c != nil && (c.Code == game.Unavailable || c.Code == game.Internal) {
			return nil, err
		}
	}
	return ids, nil
}

// SoloInPlay returns the position of a player's own solo game in play, for
// a hint or a check (what names them in the refusal of a race).
func (s *Service) SoloInPlay(ctx context.Context, id, player, what string) (live.SoloPosition, error) {
	t, _, err := s.open(ctx, id, player)
	if err != nil {
		return live.SoloPosition{}, err
	}
	if t.Game().Kind != game.KindSolo {
		return live.SoloPosition{}, game.Errorf(game.Forbidden, "%s for solo games, not races", what)
	}
	pos, err := s.tables.SoloPosition(ctx, t.ID())
	if err != nil {
		return live.SoloPosition{}, err
	}
	if pos.Over != nil {
		return live.SoloPosition{}, pos.Over
	}
	return pos, nil
}

// Ping reports whether the store answers.
func (s *Service) Ping(ctx context.Context) error { return s.store.Ping(ctx) }

// LastWriteError returns when the last write of the action log failed and
// why, or a zero time and nil when it has not: as the Committer tells
// (store.Committer does), else never.
func (s *Service) LastWriteError() (time.Time, error) {
	if c, ok := s.committer.(interface{ LastError() (time.Time, error) }); ok {
		return c.LastError()
	}
	return time.Time{}, nil
}

// randomString returns n random bytes from the registry's source, base64url.
func (s *Service) randomString(n int) (string, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(s.random, b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// randomDeal picks a deal number uniformly from the registry's source.
func (s *Service) randomDeal() (uint64, error) {
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

// SoloSpec is a checked request for a new solo game: its code; with
// Random, the server draws its deal (Code.Deal is then 0), among the
// winnable deals with Winnable.
type SoloSpec struct {
	Code     cards.Code
	Random   bool
	Winnable bool
}

// CreateSolo creates a player's solo game and returns its id and the
// player's view. A winnable game's deal comes from the pool of winnable
// deals, one the player has not played when the pool allows. No table is
// started (Preview).
func (s *Service) CreateSolo(ctx context.Context, player string, spec SoloSpec) (string, protocol.View, error) {
	code := spec.Code
	var opts []byte
	switch {
	case spec.Winnable:
		var err error
		mode := winnable.ModeOf(code)
		code, err = s.winnable.Pick(ctx, mode, s.store, player, s.random)
		if errors.Is(err, winnable.ErrEmpty) {
			err = game.Errorf(game.Unavailable, "no winnable deal of %s is known yet (the server is still looking for some): try again later, or without winnable", mode)
		}
		if err != nil {
			return "", nil, err
		}
		opts, _ = json.Marshal(game.SoloOptions{Winnable: true})
	case spec.Random:
		deal, err := s.randomDeal()
		if err != nil {
			return "", nil, err
		}
		code.Deal = deal
	}
	id, err := s.randomString(12)
	if err != nil {
		return "", nil, err
	}
	now := s.clock()
	g := store.Game{ID: id, Kind: game.KindSolo, Code: code.String(), Options: opts, Status: game.Playing,
		Seats: [2]string{player}, CreatedAt: now, UpdatedAt: now}
	if err := s.store.CreateGame(ctx, g); err != nil {
		return "", nil, err
	}
	_, v, err := s.tables.Preview(ctx, id, 1)
	if err != nil {
		return "", nil, err
	}
	return id, v, nil
}

// Evict stops this node's live tables of the games ids (see
// live.Registry.Evict).
func (s *Service) Evict(ids []string) { s.tables.Evict(ids) }

// Node returns this node's name in the game leases and the address it
// advertises ("" without leases).
func (s *Service) Node() (name, addr string) { return s.owner.Node() }

// Games returns the ids of the games whose tables this node runs now.
func (s *Service) Games() []string { return s.tables.Games() }

// Do applies a command for a seat of game id (see live.Registry.Do): the
// sockets' way for an action whose table stopped meanwhile.
func (s *Service) Do(ctx context.Context, id string, cmd protocol.Command) (protocol.Result, error) {
	return s.tables.Do(ctx, id, cmd)
}
