package arena

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"dsol/internal/store"
)

// Store is what arenas read and write.
type Store interface {
	Arena(ctx context.Context, id string) (store.Arena, error)
	ArenaPlayers(ctx context.Context, arena string) ([]store.ArenaPlayer, error)
	ArenaRaces(ctx context.Context, arena, game string) ([]store.ArenaRace, error)
	JoinArena(ctx context.Context, arena, player string, at time.Time) error
	PauseArena(ctx context.Context, arena, player string, paused bool) error
	Game(ctx context.Context, id string) (store.Game, error)
	Rating(ctx context.Context, player string) (store.Rating, error)
}

// Owner is who runs what across nodes (ownership.Owner): an arena runs
// only on the node holding its lease (LeasePrefix + its id).
type Owner interface {
	Acquire(ctx context.Context, id string) error
	Release(ids []string)
}

// LeasePrefix starts the lease id of an arena, so that it never meets a
// game's.
const LeasePrefix = "arena:"

// BusyError is Config.Pair's answer when a player has a race in play
// elsewhere: they are passed over for BusyWait.
type BusyError struct{ Player string }

func (e *BusyError) Error() string { return fmt.Sprintf("arena: %s has a race in play", e.Player) }

// BlockedError is Config.Pair's answer when one of the two players blocked
// the other since they joined: they are never paired again.
type BlockedError struct{ Players [2]string }

func (e *BlockedError) Error() string {
	return fmt.Sprintf("arena: %s and %s may not meet", e.Players[0], e.Players[1])
}

// BusyWait is how long a player with a race in play outside the arena is
// passed over by its pairing.
const BusyWait = 5 * time.Second

// Defaults of Config.
const (
	DefaultPairEvery = time.Second
	DefaultPushEvery = 250 * time.Millisecond
	DefaultEndGrace  = 3 * time.Minute
	DefaultLinger    = time.Minute
	DefaultPollEvery = 2 * time.Second
	// LocalPollEvery is how often a race whose table runs on this node is
	// looked up all the same (its end is told at once, unless storing it
	// failed).
	LocalPollEvery = 30 * time.Second
)

// Config holds the arenas' settings and what they call.
type Config struct {
	Store Store
	Owner Owner // nil: this node runs every arena
	// Pair creates the race number n of arena a between two players it
	// paired and returns its id (a *BusyError when one of them has a race in
	// play). TimeUp ends a race of an arena by count.
	Pair   func(ctx context.Context, a store.Arena, n int, p1, p2 string) (string, error)
	TimeUp func(ctx context.Context, race string) error
	Clock  func() time.Time
	Logger *slog.Logger
	// PairEvery is how often free players are paired; PushEvery how often
	// at most the standings are pushed; EndGrace how long after its arena
	// ended a race in play is ended by count; Linger how long an arena that
	// is over stays live with no socket open; PollEvery how often a race in
	// play is looked up in the store, for races that end on other nodes
	// default DefaultPollEvery; a race whose end this node stores is told at
	// once through RaceOver); StoreTimeout bounds
	// a round of store calls.
	PairEvery, PushEvery, EndGrace, Linger, PollEvery, StoreTimeout time.Duration
	// Paired observes a player's wait from free to paired, Pushed the time a
	// push of the standings took (both optional: metrics).
	Paired func(wait time.Duration)
	Pushed func(d time.Duration)
	// Local reports whether a race's table runs on this node, which tells
	// its end through RaceOver: such a race is looked up only every
	// LocalPollEvery (optional: every race every PollEvery).
	Local func(race string) bool
	// Blocks returns the players a player blocked or was blocked by: an
	// arena never pairs them (optional).
	Blocks func(ctx context.Context, player string) ([]string, error)
	// Counts is told, every SweepEvery and as arenas start, how many arenas
	// are live here and how many players they have joined and connected
	// (optional: metrics).
	Counts func(arenas, joined, present int)
}

// SweepEvery is how often the registry stops the arenas nobody needs and
// counts the live ones.
const SweepEvery = 10 * time.Second

// Registry holds the live arenas of this node.
type Registry struct {
	cfg Config

	mu     sync.Mutex
	arenas map[string]*Arena
	loads  map[string]*sync.Mutex
	closed bool
	stop   chan struct{}
	done   chan struct{}
}

// NewRegistry returns a registry with cfg's defaults filled in.
func NewRegistry(cfg Config) *Registry {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.PairEvery <= 0 {
		cfg.PairEvery = DefaultPairEvery
	}
	if cfg.PushEvery <= 0 {
		cfg.PushEvery = DefaultPushEvery
	}
	if cfg.EndGrace <= 0 {
		cfg.EndGrace = DefaultEndGrace
	}
	if cfg.Linger <= 0 {
		cfg.Linger = DefaultLinger
	}
	if cfg.PollEvery <= 0 {
		cfg.PollEvery = DefaultPollEvery
	}
	if cfg.StoreTimeout <= 0 {
		cfg.StoreTimeout = 10 * time.Second
	}
	r := &Registry{cfg: cfg, arenas: map[string]*Arena{}, loads: map[string]*sync.Mutex{},
		stop: make(chan struct{}), done: make(chan struct{})}
	go r.sweeper()
	return r
}

// sweeper sweeps every SweepEvery until Close.
func (r *Registry) sweeper() {
	defer close(r.done)
	t := time.NewTicker(SweepEvery)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
			r.Sweep()
		}
	}
}

// count tells Config.Counts.
func (r *Registry) count() {
	if r.cfg.Counts != nil {
		r.cfg.Counts(r.Counts())
	}
}

// IDLength is the length of an arena's id: 9 random bytes, base64url.
const IDLength = 12

// ValidID reports whether id has the form of an arena's id, so that a
// request for anything else reads no lease and no store.
func ValidID(id string) bool {
	if len(id) != IDLength {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// ErrClosed is Get's answer once the registry is closed.
var ErrClosed = errors.New("arena: closed")

// Get returns the live arena id, loading it from the store once this node
// holds its lease (store.ErrNotFound for no such arena; the owner's error,
// an *ownership.ElsewhereError, when another node runs it).
func (r *Registry) Get(ctx context.Context, id string) (*Arena, error) {
	if !ValidID(id) {
		return nil, store.ErrNotFound
	}
	if x := r.live(id); x != nil {
		return x, nil // its lease is renewed with this node's; Lost stops it
	}
	if r.cfg.Owner != nil {
		if err := r.cfg.Owner.Acquire(ctx, LeasePrefix+id); err != nil {
			return nil, err
		}
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, ErrClosed
	}
	l := r.loads[id]
	if l == nil {
		l = &sync.Mutex{}
		r.loads[id] = l
	}
	r.mu.Unlock()
	l.Lock() // one load at a time
	defer l.Unlock()
	r.mu.Lock()
	if x := r.arenas[id]; x != nil {
		r.mu.Unlock()
		return x, nil
	}
	r.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	x := &Arena{reg: r, id: id, ctx: ctx, cancel: cancel, members: map[string]*member{}, races: map[string]*racing{}, rows: map[string]*RaceRow{},
		subs: map[*Sub]struct{}{}, present: map[string]int{}, kick: make(chan struct{}, 1),
		stop: make(chan struct{}), done: make(chan struct{})}
	if err := x.load(ctx); err != nil {
		cancel()
		r.mu.Lock()
		delete(r.loads, id)
		r.mu.Unlock()
		if r.cfg.Owner != nil && errors.Is(err, store.ErrNotFound) {
			r.cfg.Owner.Release([]string{LeasePrefix + id})
		}
		return nil, err
	}
	x.idleSubs = r.cfg.Clock()
	r.mu.Lock()
	delete(r.loads, id)
	if r.closed {
		r.mu.Unlock()
		cancel()
		return nil, ErrClosed
	}
	r.arenas[id] = x
	r.mu.Unlock()
	go x.run()
	x.poke()
	r.count()
	return x, nil
}

// live returns the arena id if it is live here.
func (r *Registry) live(id string) *Arena {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.arenas[id]
}

// RaceOver tells arena that its race ended (a no-op unless the arena is
// live here; its owner elsewhere finds out by PollEvery).
func (r *Registry) RaceOver(arena, race string) {
	if x := r.live(arena); x != nil {
		x.raceOver(race)
	}
}

// Forget drops a player who deleted their data from the live arenas: out
// of the standings, their sockets closed, their seats in the list of races
// shown as a deleted player's, as the store now has them.
func (r *Registry) Forget(player string) {
	for _, x := range r.all() {
		x.forget(player)
	}
}

// all returns the live arenas, for work done without the registry's lock.
func (r *Registry) all() []*Arena {
	r.mu.Lock()
	defer r.mu.Unlock()
	xs := make([]*Arena, 0, len(r.arenas))
	for _, x := range r.arenas {
		xs = append(xs, x)
	}
	return xs
}

// Held returns the lease ids of the live arenas (ownership.Holder).
func (r *Registry) Held() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]string, 0, len(r.arenas))
	for id := range r.arenas {
		ids = append(ids, LeasePrefix+id)
	}
	return ids
}

// Lost stops a live arena whose lease this node lost (ownership.Holder).
func (r *Registry) Lost(lease string) {
	id, ok := strings.CutPrefix(lease, LeasePrefix)
	if !ok {
		return
	}
	r.remove(id)
}

func (r *Registry) remove(id string) {
	r.mu.Lock()
	x := r.arenas[id]
	delete(r.arenas, id)
	r.mu.Unlock()
	if x != nil {
		x.halt()
	}
}

// Sweep stops the arenas that are over, with no race in play and no socket
// open for Linger, and releases their leases.
func (r *Registry) Sweep() {
	now := r.cfg.Clock()
	var gone []string
	for _, x := range r.all() {
		if x.unused(now, r.cfg.Linger) {
			gone = append(gone, x.id)
		}
	}
	var leases []string
	for _, id := range gone {
		r.remove(id)
		leases = append(leases, LeasePrefix+id)
	}
	if len(leases) > 0 && r.cfg.Owner != nil {
		r.cfg.Owner.Release(leases)
	}
	r.count()
}

// Counts returns how many arenas are live here, and how many players they
// have joined and connected now.
func (r *Registry) Counts() (arenas, joined, present int) {
	xs := r.all()
	for _, x := range xs {
		j, p := x.playersNow()
		joined += j
		present += p
	}
	return len(xs), joined, present
}

// Close stops the sweeper and every live arena.
func (r *Registry) Close() {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.closed = true
	close(r.stop)
	r.mu.Unlock()
	for _, x := range r.all() {
		r.remove(x.id)
	}
	<-r.done
}
