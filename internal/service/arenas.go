package service

import (
	"cmp"
	"context"
	"errors"
	"time"

	"dsol/internal/arena"
	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/ownership"
	"dsol/internal/protocol"
	"dsol/internal/store"
)

// Arena limits (docs/arenas.md).
const (
	MinArenaMinutes = 5
	MaxArenaMinutes = 120
	// MaxArenaStartsIn is how far ahead an arena may start; DefaultStartsIn
	// when its creator does not say.
	MaxArenaStartsIn = 24 * time.Hour
	DefaultStartsIn  = 60 * time.Second
	// DefaultArenasPerDay is how many arenas a player may create in 24
	// hours unless the server says otherwise.
	DefaultArenasPerDay = 5
	// arenaListed is how long an arena that ended stays in the list.
	arenaListed  = 10 * time.Minute
	arenaListMax = 100
)

// ArenaView is an arena as a player sees it, and ArenaRace one of its
// races in its list (package arena).
type (
	ArenaView = arena.View
	ArenaRace = arena.RaceRow
)

// ArenaSpec is a checked request for a new arena.
type ArenaSpec struct {
	Minutes  int
	Draw     int
	Single   bool
	StartsIn time.Duration
}

// CreateArena creates an arena of a player's, who joins it, and returns its
// view. A player may create ArenasPerDay arenas in 24 hours (rate_limited).
func (s *Service) CreateArena(ctx context.Context, player store.Player, spec ArenaSpec) (arena.View, error) {
	now := s.clock()
	n, err := s.store.ArenasCreated(ctx, player.ID, now.Add(-24*time.Hour))
	if err != nil {
		return arena.View{}, err
	}
	if n >= s.arenasPerDay {
		return arena.View{}, game.Errorf(game.RateLimited, "you created %d arenas in the last 24 hours, the most a player may", s.arenasPerDay)
	}
	id, err := s.randomString(9)
	if err != nil {
		return arena.View{}, err
	}
	starts := now.Add(spec.StartsIn).Truncate(time.Second)
	a := store.Arena{ID: id, Creator: player.ID, Minutes: spec.Minutes, Draw: spec.Draw, Single: spec.Single,
		StartsAt: starts, EndsAt: starts.Add(time.Duration(spec.Minutes) * time.Minute), CreatedAt: now}
	if err := s.store.CreateArena(ctx, a); err != nil {
		return arena.View{}, err
	}
	return s.JoinArena(ctx, id, player)
}

// Arenas lists the upcoming and running arenas, and those that ended in
// the last minutes, soonest start first; their standings are left out
// (ArenaView has them).
func (s *Service) Arenas(ctx context.Context) ([]arena.View, error) {
	now := s.clock()
	as, err := s.store.ListArenas(ctx, now, arenaListed, arenaListMax)
	if err != nil {
		return nil, err
	}
	vs := make([]arena.View, len(as))
	for i, a := range as {
		vs[i] = arena.View{ID: a.ID, Status: arena.StatusAt(a, now), StartsAt: a.StartsAt, EndsAt: a.EndsAt, Now: now,
			Minutes: a.Minutes, Draw: a.Draw, Redeal: arena.Redeal(a.Single), Players: a.Players, Standings: []arena.Row{}}
	}
	return vs, nil
}

// liveArena returns the live arena id (on this node, which takes it on).
func (s *Service) liveArena(ctx context.Context, id string) (*arena.Arena, error) {
	x, err := s.arenas.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, game.Errorf(game.NotFound, "no such arena")
	}
	if errors.Is(err, arena.ErrClosed) {
		return nil, game.Errorf(game.Unavailable, "the server is stopping; retry")
	}
	if ownership.IsElsewhere(err) {
		return nil, &game.Error{Code: game.Unavailable, Msg: "the arena is moving between nodes; retry", Err: err}
	}
	return x, err
}

// ArenaView returns an arena as player sees it, with all its standings.
func (s *Service) ArenaView(ctx context.Context, id, player string) (arena.View, error) {
	x, err := s.liveArena(ctx, id)
	if err != nil {
		return arena.View{}, err
	}
	return x.View(player), nil
}

// ArenaRaces lists an arena's races, oldest first.
func (s *Service) ArenaRaces(ctx context.Context, id string) ([]arena.RaceRow, error) {
	x, err := s.liveArena(ctx, id)
	if err != nil {
		return nil, err
	}
	return x.Races(), nil
}

// JoinArena joins a player to an arena, or brings them back from a pause,
// and returns its view.
func (s *Service) JoinArena(ctx context.Context, id string, player store.Player) (arena.View, error) {
	x, err := s.liveArena(ctx, id)
	if err != nil {
		return arena.View{}, err
	}
	if err := x.Join(ctx, player); err != nil {
		return arena.View{}, err
	}
	return x.View(player.ID), nil
}

// LeaveArena stops pairing a player in an arena (their points stay) and
// returns its view.
func (s *Service) LeaveArena(ctx context.Context, id, player string) (arena.View, error) {
	x, err := s.liveArena(ctx, id)
	if err != nil {
		return arena.View{}, err
	}
	if err := x.Leave(ctx, player); err != nil {
		return arena.View{}, err
	}
	return x.View(player), nil
}

// FollowArena opens an arena socket's subscription for a player (see
// arena.Arena.Subscribe) and the function that ends it.
func (s *Service) FollowArena(ctx context.Context, id, player string) (<-chan []byte, func(), error) {
	for {
		x, err := s.liveArena(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		if sub, ok := x.Subscribe(player); ok {
			return sub.C(), func() { x.Unsubscribe(sub) }, nil
		}
	}
}

// ArenaCounts returns how many arenas are live on this node, and the
// players they have joined and connected (for the metrics).
func (s *Service) ArenaCounts() (arenas, joined, present int) { return s.arenas.Counts() }

// ForgetInArenas drops a player who deleted their data from the arenas
// live on this node (see arena.Registry.Forget).
func (s *Service) ForgetInArenas(player string) { s.arenas.Forget(player) }

// SweepArenas stops the arenas that ended and nobody watches.
func (s *Service) SweepArenas() { s.arenas.Sweep() }

// pairArena creates the race number n of an arena, between two players it
// paired: a
// server-dealt race (DR2, mirrored decks: both seats get the same cards) of
// the arena's draw and redeal, simultaneous turns, both seated and playing,
// a series of its own; a *arena.BusyError when one of them has a race in
// play (one race at a time), a *arena.BlockedError when either blocked the
// other.
func (s *Service) pairArena(ctx context.Context, a store.Arena, n int, p1, p2 string) (string, error) {
	bl, err := s.blocksOf(ctx, p1)
	if err != nil {
		return "", err
	}
	if _, ok := bl[p2]; ok { // a block made since they joined
		return "", &arena.BlockedError{Players: [2]string{p1, p2}}
	}
	if p, race, err := s.inRace(ctx, p1, p2); err != nil || race != "" {
		return "", cmp.Or(err, error(&arena.BusyError{Player: p}))
	}
	code := cards.Code{Kind: cards.Race, Draw: a.Draw, Single: a.Single, Mirrored: true}
	if err := s.secretDeal(&code); err != nil {
		return "", err
	}
	o := game.RaceOptions{Turns: game.Simultaneous, Series: 1, Arena: a.ID}
	id, err := s.randomString(12)
	if err != nil {
		return "", err
	}
	g, err := s.newRace(id, code, o, [2]string{p1, p2}, false, nil, id, 1)
	if err != nil {
		return "", err
	}
	if err := s.store.CreateArenaRace(ctx, a.ID, n, g); err != nil {
		return "", err
	}
	return id, nil
}

// timeUp ends an arena's race by count (klondike.TimeUp): it outlived its
// arena by arena.Config.EndGrace. A race over already is left as it is.
func (s *Service) timeUp(ctx context.Context, race string) error {
	_, err := s.tables.Do(ctx, race, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.TimeUp)})
	if c := protocol.AsError(err); c != nil && c.Code == game.GameOver {
		return nil
	}
	return err
}

// raceFinished tells the arena of a race that ended, if any.
func (s *Service) raceFinished(g store.Game) {
	o, err := game.ParseRaceOptions(g.Options)
	if err == nil && o.Arena != "" {
		s.arenas.RaceOver(o.Arena, g.ID)
	}
}
