package sqlite

import (
	"context"
	"database/sql"
	"os"
	"time"
)

// The WAL is copied into the database file by a goroutine of its own, on a
// connection of its own, rather than by the writer: SQLite's automatic
// checkpoint runs inside the commit that crosses its threshold, so that one
// commit, and every action of its batch, waits for the copy and its fsync.
// A passive checkpoint beside the writer lets commits go on meanwhile.
//
// A passive checkpoint alone does not keep the WAL small: SQLite starts the
// WAL again from its beginning only when a writer finds it wholly copied and
// no reader in it, which a steady stream of commits and reads never leaves
// it. So once the WAL file passes walTruncateBytes, the checkpointer runs a
// TRUNCATE checkpoint: it takes the writer's lock, copies what is left, waits
// for the readers of older snapshots to finish and empties the file. The
// writer wakes it as soon as the file is past that size, so in steady state
// the file stays under WALBound whatever the rate of writes.
const (
	// checkpointEvery is how often the checkpointer runs a passive
	// checkpoint while the action log is written; an idle store is not
	// checkpointed.
	checkpointEvery = 250 * time.Millisecond
	// pageSize is the size of a database page: SQLite's default, which
	// dsol keeps.
	pageSize = 4096
	// walTruncateBytes is the size of the WAL file past which the
	// checkpointer empties it, 1 MiB. It is also the writer's
	// journal_size_limit: when the writer starts the WAL again by itself,
	// it cuts the file back to this size.
	walTruncateBytes = 1 << 20
	// WALBound is the size the WAL file stays under in steady state, 4 MiB:
	// walTruncateBytes, and what is written while the checkpointer empties
	// it. A reader that holds one snapshot longer (a backup) keeps the WAL
	// from being emptied meanwhile; it is emptied once the reader is done.
	WALBound = 4 << 20
	// writerCheckpointPages is the WAL size, in pages, past which the writer
	// checkpoints by itself after all (SQLite's automatic checkpoint), should
	// the checkpointer fall behind: WALBound.
	writerCheckpointPages = WALBound / pageSize
	// truncateWait bounds how long the checkpointer waits for the writer's
	// lock, and then, holding it, for the readers of older snapshots; past
	// it the checkpoint copies what it can, as a passive one does.
	truncateWait = 100 * time.Millisecond
	// maxHoldoff is the longest pause, in runs of checkpointEvery, between
	// two truncating checkpoints that readers held up: while a long read
	// lasts, each attempt holds the writer up for truncateWait.
	maxHoldoff = 16
)

// wrote notes a write of the action log, or an attempt, for the
// checkpointer, and wakes it at once when the WAL file has grown past
// walTruncateBytes.
func (s *Store) wrote() {
	s.written.Store(true)
	if s.walSize() > walTruncateBytes {
		select {
		case s.walFull <- struct{}{}:
		default:
		}
	}
}

// walSize returns the size of the WAL file, 0 when there is none.
func (s *Store) walSize() int64 {
	fi, err := os.Stat(s.wal)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// checkpointer runs a passive checkpoint every checkpointEvery after a write
// of the action log, and a truncating one as soon as the WAL file is past
// walTruncateBytes, until stop is closed.
func (s *Store) checkpointer(c *sql.DB) {
	defer close(s.ckptDone)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	// holdoff counts the runs to let pass before the next truncating
	// checkpoint, after one that readers held up; pause is the next one.
	holdoff, pause := 0, 1
	for {
		tick := false
		select {
		case <-s.ckptStop:
			return
		case <-t.C:
			tick = true
			holdoff = max(0, holdoff-1)
		case <-s.walFull:
		}
		truncate := holdoff == 0 && s.walSize() > walTruncateBytes
		if !truncate && !(tick && s.written.Load()) {
			continue
		}
		s.written.Store(false)
		mode := "PASSIVE"
		if truncate {
			mode = "TRUNCATE"
		}
		ctx, cancel := context.WithTimeout(context.Background(), busyTimeout)
		var busy, log, copied int
		err := c.QueryRowContext(ctx, "PRAGMA wal_checkpoint("+mode+")").Scan(&busy, &log, &copied)
		cancel()
		switch {
		case err != nil:
			// What it could not copy (a full disk), the next run tries
			// again.
			s.written.Store(true)
		case truncate && busy != 0:
			holdoff, pause = pause, min(2*pause, maxHoldoff)
		case truncate:
			pause = 1
		}
	}
}
