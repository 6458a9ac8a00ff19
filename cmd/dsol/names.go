package main

import (
	"context"
	"log/slog"
	"sync"

	"dsol/internal/players"
)

// startNameCheck holds the stored player names to the naming rules in
// force (players.Service.CheckNames), in the background from the start on:
// a name the rules refuse, stored before they did, is replaced by a
// generated one and its player is told at their next visit. Only the names
// not checked under these rules are read, so it costs next to nothing
// once done; every node runs it at its start, and on PostgreSQL one at a
// time does the work. It returns the function that stops it, waiting for
// the batch under way.
func startNameCheck(ctx context.Context, ps *players.Service, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		n, err := ps.CheckNames(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("checking the stored names failed; it runs again at the next start", "renamed", n, "err", err)
		case err == nil:
			log.Info("stored names checked", "renamed", n)
		}
	})
	return func() {
		cancel()
		wg.Wait()
	}
}
