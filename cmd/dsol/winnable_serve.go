package main

import (
	"context"
	"log/slog"
	"sync"

	"dsol/internal/metrics"
	"dsol/internal/winnable"
)

// startWinnable returns the pool that dsol serve deals winnable games from
// (the shipped lists, then the stored pool once read) and starts what keeps
// it (winnable.Run: the stored pool read, and the background search while
// a mode has fewer than --winnable-target deals, with the search's budget and
// beam; a target of 0 leaves the search off). The function it returns stops
// that and waits for it.
func startWinnable(ctx context.Context, st winnable.Store, cfg serveConfig, log *slog.Logger, m *metrics.Metrics) (*winnable.Pool, func()) {
	pool := winnable.NewPool(func(mode winnable.Mode, listed, stored int) {
		m.SetWinnableDeals(mode.String(), listed, stored)
	})
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		winnable.Run(ctx, winnable.Config{
			Store:  st,
			Pool:   pool,
			Target: cfg.winnableTarget,
			Budget: cfg.winnableBudget,
			Beam:   cfg.winnableBeam,
			Logger: log,
			Hooks: winnable.Hooks{
				Searched: func(mode winnable.Mode, won bool) { m.ObserveWinnableSearch(mode.String(), won) },
				State:    m.SetWinnableState,
				CPU:      m.AddWinnableCPU,
			},
		})
	})
	return pool, func() {
		cancel()
		wg.Wait()
	}
}
