// Package ownership is who runs what across nodes: a node runs a live game
// (its engine, bot, clocks and grace timers) — or the quick-match queue —
// only while it holds its lease in the shared store.
//
//   - taking something on first takes its lease (Acquire); a game another
//     node holds is answered with an *ElsewhereError (unavailable: retry),
//     never from a local copy, and the holder is asked to hand it over;
//   - the owner renews this node's leases every TTL/3; what this node no
//     longer holds, or another node asked for, its holder stops at once
//     (Holder.Lost), and what was handed over has its lease released;
//   - an idle game's lease is released when it is evicted (Release), and
//     Close releases every lease, so a graceful shutdown hands all games
//     over at once; a killed node's leases expire after at most TTL.
//
// The action log's (game_id, seq) key stays the fence behind all this: a
// node that lost its lease but has not noticed yet cannot fork a game.
package ownership

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"dsol/internal/game"
	"dsol/internal/store"
)

// DefaultTTL is how long a lease lasts unless renewed.
const DefaultTTL = 3 * time.Second

// Leases is the shared store's record of who holds what (store.Leases).
type Leases interface {
	Acquire(ctx context.Context, game, node, addr string, now time.Time, ttl time.Duration) (store.Lease, bool, error)
	Renew(ctx context.Context, node string, games []string, now time.Time, ttl time.Duration) (map[string]bool, error)
	Release(ctx context.Context, node string, games []string) error
}

// ElsewhereError is the answer for what another live node holds.
type ElsewhereError struct {
	Lease store.Lease
}

// GameError implements protocol.CodedError: the client retries.
func (e *ElsewhereError) GameError() *game.Error {
	return &game.Error{Code: game.Unavailable, Msg: "the game is moving between nodes; retry", Err: e}
}

// Error implements error.
func (e *ElsewhereError) Error() string {
	if e.Lease.Node == "" {
		return fmt.Sprintf("ownership: %s was just handed over to another node", e.Lease.Game)
	}
	return fmt.Sprintf("ownership: %s runs on node %s", e.Lease.Game, e.Lease.Node)
}

// IsElsewhere reports whether err is an ElsewhereError.
func IsElsewhere(err error) bool {
	var e *ElsewhereError
	return errors.As(err, &e)
}

// Config holds an owner's settings.
type Config struct {
	// Leases is the shared store's; nil: this node is alone and owns
	// everything (every method then does nothing).
	Leases Leases
	// Node names this node in the leases (required with Leases); Addr is
	// where other nodes reach it; TTL how long a lease lasts unless renewed
	// (default DefaultTTL).
	Node string
	Addr string
	TTL  time.Duration
	// Clock is the owner's time (default time.Now); Timeout bounds a store
	// call (default 10 s).
	Clock   func() time.Time
	Timeout time.Duration
	Logger  *slog.Logger
	// Elsewhere is called when something another node holds was asked for
	// (optional: metrics).
	Elsewhere func()
}

// Holder is what holds leases on this node: the live games, the queue.
type Holder struct {
	// Held returns the ids whose leases it holds now.
	Held func() []string
	// Lost stops what id names at once, whatever uses it, and returns once
	// it has stopped: this node no longer holds its lease, or another node
	// asked for it (the owner then releases the lease).
	Lost func(id string)
}

// Owner takes, renews and releases this node's leases.
type Owner struct {
	cfg Config

	mu      sync.Mutex
	handed  map[string]time.Time // what was handed over to another node, and when
	holders []Holder
	stop    chan struct{}
	wg      sync.WaitGroup
}

// New returns an owner; with Leases, it renews them until Close.
func New(cfg Config) *Owner {
	if cfg.TTL <= 0 {
		cfg.TTL = DefaultTTL
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	o := &Owner{cfg: cfg, handed: make(map[string]time.Time), stop: make(chan struct{})}
	if cfg.Leases != nil {
		o.wg.Add(1)
		go o.renewer()
	}
	return o
}

// Hold registers a holder of leases, renewed with this node's.
func (o *Owner) Hold(h Holder) {
	o.mu.Lock()
	o.holders = append(o.holders, h)
	o.mu.Unlock()
}

// Node returns this node's name in the leases and the address it
// advertises ("" without leases).
func (o *Owner) Node() (name, addr string) { return o.cfg.Node, o.cfg.Addr }

// TTL is how long a lease lasts unless renewed.
func (o *Owner) TTL() time.Duration { return o.cfg.TTL }

// Acquire takes the lease of id before this node takes it on. Something
// this node handed over less than a lease's length ago is not taken back
// yet: the requests still arriving here come from before the handover, and
// taking it back would have the two nodes pass it to and fro.
func (o *Owner) Acquire(ctx context.Context, id string) error {
	ls := o.cfg.Leases
	if ls == nil {
		return nil
	}
	o.mu.Lock()
	at, handed := o.handed[id]
	if handed && o.cfg.Clock().Sub(at) >= o.cfg.TTL {
		delete(o.handed, id)
		handed = false
	}
	o.mu.Unlock()
	if handed {
		o.elsewhere()
		return &ElsewhereError{Lease: store.Lease{Game: id}}
	}
	ctx, cancel := context.WithTimeout(ctx, o.cfg.Timeout)
	defer cancel()
	l, ok, err := ls.Acquire(ctx, id, o.cfg.Node, o.cfg.Addr, o.cfg.Clock(), o.cfg.TTL)
	if err != nil {
		return err
	}
	if !ok {
		o.elsewhere()
		return &ElsewhereError{Lease: l}
	}
	return nil
}

func (o *Owner) elsewhere() {
	if o.cfg.Elsewhere != nil {
		o.cfg.Elsewhere()
	}
}

// Release gives up the leases of ids (nil: all of this node's).
func (o *Owner) Release(ids []string) {
	ls := o.cfg.Leases
	if ls == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.cfg.Timeout)
	defer cancel()
	if err := ls.Release(ctx, o.cfg.Node, ids); err != nil {
		o.cfg.Logger.Warn("ownership: release leases", "games", len(ids), "err", err)
	}
}

// HandOver records that id was handed over to the node that asked for it
// and releases its lease.
func (o *Owner) HandOver(id string) {
	o.mu.Lock()
	o.handed[id] = o.cfg.Clock()
	o.mu.Unlock()
	o.Release([]string{id})
}

// Close stops renewing and releases every lease of this node.
func (o *Owner) Close() {
	select {
	case <-o.stop:
		return
	default:
	}
	close(o.stop)
	o.wg.Wait()
	o.Release(nil)
}

// renewer renews this node's leases until Close.
func (o *Owner) renewer() {
	defer o.wg.Done()
	tick := time.NewTicker(o.cfg.TTL / 3)
	defer tick.Stop()
	lastOK := o.cfg.Clock()
	for {
		select {
		case <-tick.C:
		case <-o.stop:
			return
		}
		if o.renew() {
			lastOK = o.cfg.Clock()
		} else if o.cfg.Clock().Sub(lastOK) >= o.cfg.TTL {
			// The leases may have expired meanwhile: another node may own
			// these by now.
			for _, h := range o.holdersNow() {
				for _, id := range h.Held() {
					h.Lost(id)
				}
			}
		}
	}
}

func (o *Owner) holdersNow() []Holder {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]Holder(nil), o.holders...)
}

// renew extends the leases of what the holders hold, stops what this node
// no longer holds or another node asked for, and hands over the latter. It
// reports whether the store answered.
func (o *Owner) renew() bool {
	o.mu.Lock()
	for id, at := range o.handed {
		if o.cfg.Clock().Sub(at) >= o.cfg.TTL {
			delete(o.handed, id)
		}
	}
	o.mu.Unlock()
	hs := o.holdersNow()
	held := make([][]string, len(hs))
	var ids []string
	for i, h := range hs {
		held[i] = h.Held()
		ids = append(ids, held[i]...)
	}
	if len(ids) == 0 {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.cfg.TTL/3)
	defer cancel()
	still, err := o.cfg.Leases.Renew(ctx, o.cfg.Node, ids, o.cfg.Clock(), o.cfg.TTL)
	if err != nil {
		o.cfg.Logger.Warn("ownership: renew leases", "games", len(ids), "err", err)
		return false
	}
	for i, h := range hs {
		for _, id := range held[i] {
			wanted, ok := still[id]
			if ok && !wanted {
				continue
			}
			h.Lost(id)
			if ok { // another node asked for it
				o.HandOver(id)
			}
		}
	}
	return true
}
