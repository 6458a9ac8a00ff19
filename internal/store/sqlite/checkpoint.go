package sqlite

import (
	"context"
	"database/sql"
	"time"
)

// The WAL is copied into the database file by a goroutine of its own, on a
// connection of its own, rather than by the writer: SQLite's automatic
// checkpoint runs inside the commit that crosses its threshold, so that one
// commit, and every action of its batch, waits for the copy and its fsync.
// A passive checkpoint beside the writer lets commits go on meanwhile.
const (
	// checkpointEvery is how often the checkpointer runs while the action
	// log is written; an idle store is not checkpointed.
	checkpointEvery = 250 * time.Millisecond
	// writerCheckpointPages is the WAL size, in pages, past which the writer
	// checkpoints by itself after all (SQLite's automatic checkpoint), should
	// the checkpointer fall behind: 10,000 pages, 40 MB.
	writerCheckpointPages = 10000
)

// checkpointer copies the WAL into the database every checkpointEvery
// after a write of the action log, until stop is closed.
func (s *Store) checkpointer(c *sql.DB) {
	defer close(s.ckptDone)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-s.ckptStop:
			return
		case <-t.C:
		}
		if !s.written.Swap(false) {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), busyTimeout)
		// PASSIVE waits for no reader and no writer; what it cannot copy
		// now, the next run does. A failure (a full disk) leaves the WAL
		// to the writer's own checkpoint.
		if _, err := c.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
			s.written.Store(true)
		}
		cancel()
	}
}
