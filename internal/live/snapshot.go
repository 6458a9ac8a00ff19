package live

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"log/slog"
	"time"

	"dsol/internal/engine"
	"dsol/internal/store"
)

// A table stores a snapshot of its game — the engine's state
// (engine.Engine.AppendState), the seq it is at and the time of play so far
// — when it stops after it played on (evicted when idle, handed over to
// another node, the server shutting down) and every SnapshotEvery actions
// (for a node that dies), so that it comes back from the store by reading
// the snapshot and the actions after it, however long the game: the actions
// before it are read only for a resume, a replay or the game's pace. A
// snapshot is taken only of a state the log holds (every action of it
// durable) and written off the table's goroutine, in batches, by the
// registry's snapshot writer; only the newest is kept. One that cannot be
// read (another build's format, a damaged row) is passed over and the log
// replayed whole.
const SnapshotEvery = 1024

// snapshotVersion is the format of what snapshotOf writes.
const snapshotVersion = 1

// snapshotHeader is the length of a snapshot before the engine's state:
// version (1), checksum of the rest (4), seq (8), time of play in
// nanoseconds (8).
const snapshotHeader = 1 + 4 + 8 + 8

// snapshotOf encodes the table state of a game at seq: its engine and its
// time of play.
func snapshotOf(eng engine.Engine, seq int64, play time.Duration) []byte {
	b := make([]byte, snapshotHeader, snapshotHeader+4096)
	b[0] = snapshotVersion
	binary.LittleEndian.PutUint64(b[5:], uint64(seq))
	binary.LittleEndian.PutUint64(b[13:], uint64(play))
	b = eng.AppendState(b)
	binary.LittleEndian.PutUint32(b[1:], crc32.ChecksumIEEE(b[5:]))
	return b
}

// errSnapshot refuses a snapshot that cannot be loaded.
var errSnapshot = errors.New("live: the snapshot is of another format or damaged")

// loadSnapshot gives eng, fresh from the game's header, the state of
// snapshot b, which must be of seq; it returns the time of play then.
func loadSnapshot(eng engine.Engine, b []byte, seq int64) (time.Duration, error) {
	if len(b) < snapshotHeader || b[0] != snapshotVersion ||
		binary.LittleEndian.Uint32(b[1:]) != crc32.ChecksumIEEE(b[5:]) ||
		int64(binary.LittleEndian.Uint64(b[5:])) != seq {
		return 0, errSnapshot
	}
	if err := eng.LoadState(b[snapshotHeader:]); err != nil {
		return 0, errors.Join(errSnapshot, err)
	}
	return time.Duration(binary.LittleEndian.Uint64(b[13:])), nil
}

// snapshot hands the table's state to the snapshot writer when its seq
// passed a multiple of SnapshotEvery since the last snapshot, or, with
// stopping, when it moved at all; a writer with its queue full drops a
// periodic one (the next one comes), never one of a table that stops. Only
// a state the log holds is taken.
func (t *Table) snapshot(stopping bool) {
	if t.seq == t.snapAt || t.seq != t.durable.Load() || t.eng == nil ||
		(!stopping && t.seq/SnapshotEvery == t.snapAt/SnapshotEvery) {
		return
	}
	s := store.Snapshot{GameID: t.id, Seq: t.seq, State: snapshotOf(t.eng, t.seq, t.play), At: t.cfg.Clock()}
	if t.cfg.snaps.put(s, stopping) {
		t.snapAt = t.seq
	}
}

// snapWriter writes the tables' snapshots to the store in batches, on a
// goroutine of its own, so that a table never waits for the store on its
// account and many tables stopping at once (a shutdown) cost one
// transaction a batch.
type snapWriter struct {
	st      store.Snapshots
	log     *slog.Logger
	timeout time.Duration
	in      chan store.Snapshot
	done    chan struct{}
}

// snapBatch is the most snapshots one transaction writes, and the queue's
// room.
const snapBatch = 256

func newSnapWriter(st store.Snapshots, log *slog.Logger, timeout time.Duration) *snapWriter {
	w := &snapWriter{st: st, log: log, timeout: timeout, in: make(chan store.Snapshot, snapBatch), done: make(chan struct{})}
	go w.run()
	return w
}

// put queues s; with wait it waits for room, else it reports false when
// there is none.
func (w *snapWriter) put(s store.Snapshot, wait bool) bool {
	if wait {
		w.in <- s
		return true
	}
	select {
	case w.in <- s:
		return true
	default:
		return false
	}
}

// close writes what is queued and stops the writer; no put may follow.
func (w *snapWriter) close() {
	close(w.in)
	<-w.done
}

func (w *snapWriter) run() {
	defer close(w.done)
	batch := make([]store.Snapshot, 0, snapBatch)
	for s := range w.in {
		batch = append(batch[:0], s)
	gather:
		for len(batch) < snapBatch {
			select {
			case s, ok := <-w.in:
				if !ok {
					break gather
				}
				batch = append(batch, s)
			default:
				break gather
			}
		}
		w.write(batch)
		clear(batch)
	}
}

// write stores a batch, the newest snapshot of each game of it.
func (w *snapWriter) write(batch []store.Snapshot) {
	newest := make(map[string]int, len(batch))
	out := batch[:0:0]
	for _, s := range batch {
		if i, ok := newest[s.GameID]; ok {
			if s.Seq > out[i].Seq {
				out[i] = s
			}
			continue
		}
		newest[s.GameID] = len(out)
		out = append(out, s)
	}
	ctx, cancel := context.WithTimeout(context.Background(), w.timeout)
	defer cancel()
	if err := w.st.PutSnapshots(ctx, out); err != nil {
		w.log.Warn("table: store snapshots", "snapshots", len(out), "err", err)
	}
}
