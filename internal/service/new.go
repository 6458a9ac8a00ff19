// Package service is the game service: the one API the transports (REST
// and the WebSocket sessions) call for everything they do with games, by
// game id and player id — create a game, join, cancel or rematch a race,
// quick match, act, follow and look at a game, hints and the live check,
// the daily challenges, replays, blocks. Each call writes the store for
// what it does and changes a live game on that game's table (package
// table), in its goroutine, so that a race's header and its live state
// change in one place. It owns the limits on solver work: the slots that
// hints, live checks and the strong bot's searches share. Errors are
// *game.Error or map to one with protocol.AsError.
package service

import (
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	"runtime"
	"time"

	"dsol/internal/arena"
	"dsol/internal/hint"
	"dsol/internal/live"
	"dsol/internal/matchmaking"
	"dsol/internal/ownership"
	"dsol/internal/solo"
	"dsol/internal/store"
	"dsol/internal/winnable"
)

// DefaultCheckBudget is the positions of one live check unless the server
// says otherwise.
const DefaultCheckBudget = solo.CheckBudget

// Config holds the dependencies and settings of the service.
type Config struct {
	// Live are the settings of the live tables (package live); the
	// service fills in their store, committer, clock, logger, owner, live
	// check and strong bot.
	Live live.Config
	// Store and Committer hold the games; Owner shares them with the other
	// nodes (nil: a node alone).
	Store     store.Store
	Committer live.Committer
	Owner     *ownership.Owner
	Logger    *slog.Logger
	Clock     func() time.Time
	// Random is the source of game ids, invites, salts and the server's
	// deals (default crypto/rand.Reader).
	Random io.Reader
	// Winnable is the pool winnable solo deals are dealt from; nil: the
	// shipped lists alone.
	Winnable *winnable.Pool
	// LobbyChanged tells the lobby that its list may have changed: a public
	// race created, joined or cancelled here (optional).
	LobbyChanged func()
	// Slots bound the hints, live checks and strong-bot searches worked
	// out at once on the node; default one per CPU. A hint asked while all
	// are busy is refused rate_limited; a check waits; the strong bot plays
	// its plain move.
	Slots *Slots
	// Hint is the work of one hint (default hint.Default); CheckBudget the
	// positions of one live check (default DefaultCheckBudget).
	Hint        hint.Options
	CheckBudget int64
	// Hooks observe the service (metrics; each optional): Action an action
	// refused before it reached a table (its type "" and the error code),
	// Waiting the players in the quick-match queue, Wait how long a player
	// waited when paired.
	Action  func(actionType, code string)
	Waiting func(n int)
	Wait    func(d time.Duration)
	// Arena are the arenas' settings (package arena); the service fills in
	// their store, owner, clock, logger and the making and ending of their
	// races. ArenasPerDay is how many arenas a player may create in 24 hours
	// (default DefaultArenasPerDay).
	Arena        arena.Config
	ArenasPerDay int
}

// Service is the game service.
type Service struct {
	store     store.Store
	committer live.Committer
	tables    *live.Registry
	queue     *matchmaking.Queue
	owner     *ownership.Owner
	log       *slog.Logger
	clock     func() time.Time
	random    io.Reader
	winnable  *winnable.Pool
	lobby     func()
	action    func(actionType, code string)
	hint      hint.Options
	slots     *Slots
	daily     dailyMaker
	arenas    *arena.Registry

	arenasPerDay int
}

// New returns the service over cfg's store, with its live tables and its
// quick-match queue.
func New(cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	if cfg.Winnable == nil {
		cfg.Winnable = winnable.NewPool(nil)
	}
	if cfg.Owner == nil {
		cfg.Owner = ownership.New(ownership.Config{Clock: cfg.Clock})
	}
	if cfg.Slots == nil {
		cfg.Slots = NewSlots(runtime.NumCPU())
	}
	if cfg.Hint.Samples <= 0 || cfg.Hint.Positions <= 0 {
		cfg.Hint = hint.Default
	}
	if cfg.CheckBudget <= 0 {
		cfg.CheckBudget = DefaultCheckBudget
	}
	if cfg.ArenasPerDay <= 0 {
		cfg.ArenasPerDay = DefaultArenasPerDay
	}
	s := &Service{store: cfg.Store, committer: cfg.Committer, owner: cfg.Owner, log: cfg.Logger, clock: cfg.Clock,
		random: cfg.Random, winnable: cfg.Winnable, lobby: cfg.LobbyChanged, action: cfg.Action, hint: cfg.Hint,
		slots: cfg.Slots, arenasPerDay: cfg.ArenasPerDay}
	lc := cfg.Live
	lc.Store, lc.Committer, lc.Owner, lc.Logger, lc.Clock = cfg.Store, cfg.Committer, cfg.Owner, cfg.Logger, cfg.Clock
	lc.Check = SolverCheck(cfg.CheckBudget, cfg.Slots)
	lc.Think = SolverThink(cfg.Slots)
	lc.Hooks.Finished = s.raceFinished
	s.tables = live.NewRegistry(lc)
	ac := cfg.Arena
	ac.Store, ac.Owner, ac.Clock, ac.Logger = cfg.Store, cfg.Owner, cfg.Clock, cfg.Logger
	ac.Pair, ac.TimeUp, ac.Blocks, ac.Local = s.pairArena, s.timeUp, s.avoidOf, s.tables.Has
	s.arenas = arena.NewRegistry(ac)
	s.owner.Hold(ownership.Holder{Held: s.arenas.Held, Lost: s.arenas.Lost})
	s.queue = matchmaking.New(matchmaking.Config{Pair: s.pairRace, Clock: cfg.Clock, Logger: cfg.Logger,
		Waiting: cfg.Waiting, Wait: cfg.Wait})
	s.owner.Hold(ownership.Holder{
		Held: func() []string {
			if s.queue.Live() {
				return []string{matchmaking.ID}
			}
			return nil
		},
		Lost: func(string) { s.queue.Drop() }, // its players re-queue where the routing sends them
	})
	return s
}

// Tables are the live tables the service runs its games on.
func (s *Service) Tables() *live.Registry { return s.tables }

// Close empties the quick-match queue, stops the live arenas, lets every table finish the batch
// it is committing and stops them (see live.Registry.Close). Close the
// owner, the committer and the store after it.
func (s *Service) Close(ctx context.Context) error {
	s.queue.Close()
	s.arenas.Close()
	return s.tables.Close(ctx)
}

// lobbyChanged tells the lobby, if any, that its list may have changed.
func (s *Service) lobbyChanged() {
	if s.lobby != nil {
		s.lobby()
	}
}
