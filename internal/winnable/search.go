package winnable

import (
	"context"
	crand "crypto/rand"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"time"

	"dsol/internal/cards"
	"dsol/internal/solver/tally"
	"dsol/internal/store"
)

// Store is the stored pool of winnable deals, shared by the nodes: Run
// reads it and adds the deals its search finds.
type Store interface {
	AddWinnable(ctx context.Context, deals []store.WinnableDeal) (int, error)
	WinnableDeals(ctx context.Context) ([]store.WinnableDeal, error)
}

// Config configures Run.
type Config struct {
	Store Store
	Pool  *Pool
	// Target is the number of deals of each mode, the shipped list's
	// included, that the search works towards; 0 turns the search off (the
	// stored pool is still read).
	Target int
	// Budget is the solver's budget for each deal, in positions
	// (DefaultBudget when 0).
	Budget int64
	// Beam is the width of the beam the tally solver searches Vegas deals
	// with (tally.Options.Beam), 0 for its depth-first search. Normal deals
	// are always searched depth first, which wins nearly all of them at
	// once; a single-pass deal is won far more often by a beam (see
	// DefaultBeam).
	Beam int
	// Meter reads the CPU time of the process and of the search's thread:
	// ProcessMeter() when nil; where there is none the search is off.
	Meter Meter
	// CPUs is the number of CPUs the process may use (runtime.GOMAXPROCS
	// when 0): the search keeps the process under half of them.
	CPUs int
	// Window is how often the search measures the CPU use (200 ms when 0).
	Window time.Duration
	// Refresh is how often the stored pool is read again, for the deals
	// other nodes found, and failed writes tried again (5 min when 0).
	Refresh time.Duration
	Logger  *slog.Logger
	Hooks   Hooks
}

// Hooks let the caller count what the search does; each may be nil.
type Hooks struct {
	// Searched counts a deal searched to the end of its budget, or won.
	Searched func(m Mode, won bool)
	// State tells what the search does now: "searching", "yielding" (the
	// process is busy), "idle" (every mode has reached the target) or
	// "off".
	State func(state string)
	// CPU adds CPU time the search used.
	CPU func(d time.Duration)
}

// Run keeps the pool: it reads the stored pool into it, then, while ctx
// lasts, searches random deals of the modes below the target, one at a
// time, and adds those the solver wins (and the engine confirms) to the
// store and to the pool, reading the stored pool again every Refresh. The
// search is paced by the CPU use of the process (see gate) and stops as
// soon as ctx ends; a search cut short is not counted.
func Run(ctx context.Context, cfg Config) {
	if cfg.Budget <= 0 {
		cfg.Budget = DefaultBudget
	}
	if cfg.Meter == nil {
		cfg.Meter = ProcessMeter()
	}
	if cfg.CPUs <= 0 {
		cfg.CPUs = runtime.GOMAXPROCS(0)
	}
	if cfg.Window <= 0 {
		cfg.Window = 200 * time.Millisecond
	}
	if cfg.Refresh <= 0 {
		cfg.Refresh = 5 * time.Minute
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	h := cfg.Hooks
	if h.Searched == nil {
		h.Searched = func(Mode, bool) {}
	}
	if h.State == nil {
		h.State = func(string) {}
	}
	if h.CPU == nil {
		h.CPU = func(time.Duration) {}
	}
	k := &keeper{cfg: cfg, log: cfg.Logger}
	k.refresh(ctx)
	if cfg.Target <= 0 || cfg.Meter == nil {
		h.State("off")
		if cfg.Target > 0 {
			cfg.Logger.Warn("winnable: no search for deals: this system gives no CPU time per thread, which the pacing needs")
		}
		for sleepUntil(ctx, time.Now().Add(cfg.Refresh)) {
			k.refresh(ctx)
		}
		return
	}
	// The search's goroutine holds a P of the runtime whenever it runs,
	// and the low priority of its thread makes the system run it seldom
	// while the machine is busy: holding one of the server's Ps, it would
	// leave the server one P short for as long. So it gets a P of its
	// own, and the server keeps as many as it had. (Setting GOMAXPROCS
	// ends the runtime's own updates of it to a changed CPU limit.)
	procs := runtime.GOMAXPROCS(0)
	runtime.GOMAXPROCS(procs + 1)
	defer runtime.GOMAXPROCS(procs)
	searchThread()
	var seed [32]byte
	_, _ = crand.Read(seed[:])
	rnd := rand.New(rand.NewChaCha8(seed))
	state := ""
	report := func(s string) {
		if s != state {
			state = s
			h.State(s)
		}
	}
	g := newGate(cfg.Meter, cfg.CPUs, cfg.Window, report, h.CPU)
	stop := func() bool { return !g.wait(ctx) }
	s := tally.New()
	next := time.Now().Add(cfg.Refresh)
	last := Mode(len(Modes) - 1)
	cfg.Logger.Info("winnable: searching for deals", "target", cfg.Target, "budget", cfg.Budget,
		"vegas_beam", cfg.Beam, "cpus", cfg.CPUs, "window", cfg.Window)
	for ctx.Err() == nil {
		if time.Now().After(next) {
			k.refresh(ctx)
			next = time.Now().Add(cfg.Refresh)
		}
		m, ok := k.below(last)
		if !ok {
			report("idle")
			if !sleepUntil(ctx, next) {
				return
			}
			continue
		}
		last = m
		if !g.wait(ctx) {
			return
		}
		deal := rnd.Uint64N(cards.DealCount)
		if cfg.Pool.Has(m, deal) {
			continue
		}
		beam := 0
		if m.Vegas() {
			beam = cfg.Beam
		}
		res, won, err := SolveTally(s, m, deal, cfg.Budget, beam, stop)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			cfg.Logger.Error("winnable: the engine refused a line of the solver", "err", err)
			continue
		}
		h.Searched(m, won)
		if won {
			k.found(ctx, Deal{Mode: m, Number: deal, Budget: cfg.Budget, Positions: res.Positions, Beam: beam})
		}
	}
}

// keeper holds what Run keeps between searches: the deals found that the
// store has not taken yet.
type keeper struct {
	cfg     Config
	log     *slog.Logger
	unsaved []store.WinnableDeal
}

// refresh writes the deals the store has not taken yet and reads the stored
// pool into the pool.
func (k *keeper) refresh(ctx context.Context) {
	if len(k.unsaved) > 0 {
		if _, err := k.cfg.Store.AddWinnable(ctx, k.unsaved); err == nil {
			k.unsaved = nil
		} else if ctx.Err() == nil {
			k.log.Warn("winnable: storing found deals failed; trying again later", "deals", len(k.unsaved), "err", err)
		}
	}
	stored, err := k.cfg.Store.WinnableDeals(ctx)
	if err != nil {
		if ctx.Err() == nil {
			k.log.Warn("winnable: reading the stored pool failed; trying again later", "err", err)
		}
		return
	}
	ds := make([]Deal, 0, len(stored))
	for _, sd := range stored {
		d, err := fromStore(sd)
		if err != nil {
			k.log.Warn("winnable: ignoring a stored deal", "err", err)
			continue
		}
		ds = append(ds, d)
	}
	if n := k.cfg.Pool.Add(ds...); n > 0 {
		k.log.Info("winnable: deals read from the stored pool", "new", n, "stored", len(stored))
	}
}

// found stores a deal the search won and adds it to the pool (even when
// the store fails: the deal is proved all the same). The write goes on when
// ctx ends, for up to storeTimeout, so that a deal found as the server
// stops is kept.
func (k *keeper) found(ctx context.Context, d Deal) {
	k.cfg.Pool.Add(d)
	k.unsaved = append(k.unsaved, toStore(d, time.Now()))
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	if _, err := k.cfg.Store.AddWinnable(sctx, k.unsaved); err != nil {
		k.log.Warn("winnable: storing a found deal failed; trying again later", "deals", len(k.unsaved), "err", err)
		return
	}
	k.unsaved = nil
}

// storeTimeout bounds the write of a found deal.
const storeTimeout = 5 * time.Second

// below returns the next mode after last, round the modes, that has fewer
// deals than the target.
func (k *keeper) below(last Mode) (Mode, bool) {
	for i := 1; i <= len(Modes); i++ {
		m := Modes[(int(last)+i)%len(Modes)]
		if k.cfg.Pool.Size(m) < k.cfg.Target {
			return m, true
		}
	}
	return 0, false
}
