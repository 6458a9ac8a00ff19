package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"dsol/internal/metrics"
	"dsol/internal/store"
)

// The retention sweep of dsol serve (--retain-unfinished): abandoned
// unfinished games, solo games still in play and races still waiting for a
// second player, whose last activity is older than the retention are deleted
// with their actions. Finished games and races in play are kept for ever.
const (
	// retentionEvery is the time between two sweeps; the first runs at start.
	retentionEvery = time.Hour
	// retentionBatch is the most games one transaction deletes, so that a
	// sweep never holds the database (SQLite's single writer above all) for
	// long.
	retentionBatch = 500
	// retentionBatchTimeout bounds one batch.
	retentionBatchTimeout = time.Minute
)

// startRetention starts the sweeper when retain > 0 (0 keeps every game) and
// returns the function that stops it, waiting for a batch under way to end.
// Every node may run it: on PostgreSQL the store lets one node at a time
// sweep a schema, the others find nothing to do.
func startRetention(ctx context.Context, st store.Retention, retain time.Duration, log *slog.Logger, m *metrics.Metrics) (stop func()) {
	if retain <= 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(retentionEvery)
		defer tick.Stop()
		for {
			sweepAbandoned(ctx, st, time.Now().Add(-retain), log, m)
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	})
	log.Info("retention of abandoned games on", "retain_unfinished", retain, "every", retentionEvery)
	return func() {
		cancel()
		wg.Wait()
	}
}

// sweepAbandoned deletes, batch by batch, the abandoned games last active
// before the cutoff, counts them and logs how many went. It returns that
// number.
func sweepAbandoned(ctx context.Context, st store.Retention, cutoff time.Time, log *slog.Logger, m *metrics.Metrics) int {
	total := 0
	for ctx.Err() == nil {
		bctx, cancel := context.WithTimeout(ctx, retentionBatchTimeout)
		n, err := st.DeleteAbandoned(bctx, cutoff, retentionBatch)
		cancel()
		total += n
		m.AddGamesDeleted(n)
		if err != nil {
			if ctx.Err() == nil {
				log.Warn("retention sweep failed; it runs again at the next sweep", "deleted", total, "err", err)
			}
			return total
		}
		if n < retentionBatch {
			break
		}
	}
	log.Info("retention sweep: abandoned games deleted", "deleted", total, "last_active_before", cutoff.UTC().Format(time.RFC3339))
	return total
}
