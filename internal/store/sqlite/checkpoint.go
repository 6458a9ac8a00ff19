package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"os"
	"strconv"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
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
// it. So once the WAL file passes walRestartBytes (the writer looks after
// each write of the action log, and wakes the checkpointer), the
// checkpointer runs a passive checkpoint and then a RESTART checkpoint on
// the writer's connection: it copies what was committed meanwhile, waits
// for the readers of older snapshots to finish, and the next commit writes
// the WAL from its start.
// The writer's journal_size_limit then cuts the file back to
// walRestartBytes. Should the checkpointer be late (a busy machine), the
// writer runs the RESTART itself once the file passes walForceBytes, so in
// steady state the file stays under WALBound whatever the rate of writes.
const (
	// checkpointEvery is how often the checkpointer runs a passive
	// checkpoint while the action log is written; an idle store is not
	// checkpointed.
	checkpointEvery = 250 * time.Millisecond
	// pageSize is the size of a database page: SQLite's default, which
	// dsol keeps.
	pageSize = 4096
	// walRestartBytes is the size of the WAL file past which the
	// checkpointer starts the WAL again, 1.5 MiB, and the writer's
	// journal_size_limit.
	walRestartBytes = 3 << 19
	// walForceBytes is the size of the WAL file past which the writer
	// starts the WAL again itself, 2 MiB, before it answers the batch
	// that took it there.
	walForceBytes = 2 << 20
	// WALBound is the size the WAL file stays under in steady state, 4 MiB:
	// walForceBytes and the pages of one batch of the group commit (a
	// batch writes a page or a few for each game in it: 2 MiB is 512
	// pages). A reader that holds one snapshot for long (a backup) keeps
	// the WAL from starting again meanwhile; once it is done the WAL
	// starts again and its file is cut back.
	WALBound = 4 << 20
	// writerCheckpointPages is the WAL size, in pages, past which the writer
	// checkpoints by itself inside a commit (SQLite's automatic
	// checkpoint), should the RESTART checkpoints be held up: WALBound.
	writerCheckpointPages = WALBound / pageSize
	// restartWait bounds how long a RESTART checkpoint, which holds the
	// writer meanwhile, waits for the readers of older snapshots; past it,
	// it has copied what it could, as a passive one does.
	restartWait = 100 * time.Millisecond
	// maxHoldoff is the longest pause, in runs of checkpointEvery, between
	// two RESTART checkpoints that readers held up: while a long read
	// lasts, each attempt holds the writer up for restartWait.
	maxHoldoff = 16
)

// checkpoints is the state of the store's checkpoints, which run one at a
// time: SQLite refuses a checkpoint (SQLITE_BUSY, without waiting) while
// another one runs, and the checkpointer and the writer both run them.
type checkpoints struct {
	mu sync.Mutex
	// holdoff counts the checkpointer's runs to let pass before the next
	// RESTART checkpoint, after one that failed or that readers held up;
	// pause is the next one's: none after the first that readers held up
	// (the next write tries again), then 1, 2, 4... runs.
	holdoff, pause int
	// restarted: a RESTART checkpoint copied the WAL since the
	// checkpointer's last run, which need not copy it again.
	restarted bool
}

// wrote notes a write of the action log, or an attempt, for the
// checkpointer, and wakes it when the WAL file has grown past
// walRestartBytes; past walForceBytes it starts the WAL again itself.
func (s *Store) wrote(ctx context.Context) {
	s.written.Store(true)
	size := s.walSize()
	if size > walRestartBytes {
		select {
		case s.walFull <- struct{}{}:
		default:
		}
	}
	if size > walForceBytes {
		s.checkpoints.mu.Lock()
		// An error is the checkpointer's to try again: the write is done.
		s.restartWAL(ctx, walForceBytes, nil)
		s.checkpoints.mu.Unlock()
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

// restartWAL runs a RESTART checkpoint if the WAL file is past limit bytes
// and none is held off, and keeps the outcome for the next ones; it reports
// whether it ran one. With first, a passive checkpoint on it copies what it
// can before, without holding the writer up: the RESTART checkpoint, which
// does, then copies only what was committed meanwhile (under 100 races,
// 3.9-4.9 ms per commit against 5.3-10.6 without). The caller holds
// s.checkpoints.mu.
func (s *Store) restartWAL(ctx context.Context, limit int64, first querier) bool {
	c := &s.checkpoints
	if c.holdoff > 0 || s.walSize() <= limit {
		return false
	}
	if first != nil {
		// Should it fail (a full disk), so does the RESTART checkpoint.
		_, _ = checkpoint(ctx, first, "PASSIVE")
	}
	busy, err := s.restart(ctx)
	switch {
	case err != nil && !isBusy(err):
		// What it could not copy (a full disk), the checkpointer tries
		// again at its next run.
		s.written.Store(true)
		c.holdoff = 1
	case err != nil || busy != 0:
		c.holdoff, c.pause = c.pause, min(max(1, 2*c.pause), maxHoldoff)
	default:
		c.pause, c.restarted = 0, true
	}
	return true
}

// isBusy reports whether err is SQLite's SQLITE_BUSY: another checkpoint
// (another process's) was running.
func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// checkpointer runs a passive checkpoint on c every checkpointEvery after a
// write of the action log, and a RESTART checkpoint as soon as the WAL file
// is past walRestartBytes, until stop is closed.
func (s *Store) checkpointer(c querier) {
	defer close(s.ckptDone)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		tick := false
		select {
		case <-s.ckptStop:
			return
		case <-t.C:
			tick = true
		case <-s.walFull:
		}
		ctx, cancel := context.WithTimeout(context.Background(), busyTimeout)
		s.checkpoints.mu.Lock()
		passive := tick
		if tick {
			s.checkpoints.holdoff = max(0, s.checkpoints.holdoff-1)
			// A passive checkpoint right after a RESTART one would copy
			// little and cost an fsync of the database.
			passive = !s.checkpoints.restarted
			s.checkpoints.restarted = false
		}
		if !s.restartWAL(ctx, walRestartBytes, c) && passive && s.written.Swap(false) {
			if _, err := checkpoint(ctx, c, "PASSIVE"); err != nil {
				// What it could not copy (a full disk), the next run
				// tries again.
				s.written.Store(true)
			}
		}
		s.checkpoints.mu.Unlock()
		cancel()
	}
}

// checkpoint runs a checkpoint of mode on q and returns its first column:
// 1 when it was held up (by the writer's lock or by readers) and copied
// what it could.
func checkpoint(ctx context.Context, q querier, mode string) (busy int, err error) {
	var log, copied int
	err = q.QueryRowContext(ctx, "PRAGMA wal_checkpoint("+mode+")").Scan(&busy, &log, &copied)
	return busy, err
}

// restart copies what is left of the WAL into the database and has the
// next commit write the WAL from its beginning (a RESTART checkpoint). It
// runs on the writer's connection, which it holds meanwhile: the group
// commit waits for it as for any write, in Go rather than in SQLite's busy
// handler (which sleeps 1, 2, 5, 10 ms... between tries), and the writer,
// which restarts the WAL itself, keeps its page cache (a restart by another
// connection has the writer read again every page it needs next). It waits
// at most restartWait for the readers of older snapshots.
func (s *Store) restart(ctx context.Context) (busy int, err error) {
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA busy_timeout = "+strconv.FormatInt(restartWait.Milliseconds(), 10)); err != nil {
		return 0, err
	}
	busy, err = checkpoint(ctx, conn, "RESTART")
	if _, rerr := conn.ExecContext(ctx, "PRAGMA busy_timeout = "+strconv.FormatInt(busyTimeout.Milliseconds(), 10)); rerr != nil {
		// The writer must not keep the short wait: drop the connection.
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		return busy, errors.Join(err, rerr)
	}
	return busy, err
}
