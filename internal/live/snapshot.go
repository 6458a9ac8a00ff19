package live

import (
	"dsol/internal/live/snapshot"
	"dsol/internal/store"
)

// A table stores a snapshot of its game — the engine's state
// (engine.Engine.AppendState), the seq it is at and the time of play so far
// — when it parks or stops after it played on (evicted when idle, handed over to
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
	s := store.Snapshot{GameID: t.id, Seq: t.seq, State: snapshot.Encode(t.eng, t.seq, t.play), At: t.cfg.Clock()}
	if t.cfg.snaps.Put(s, stopping) {
		t.snapAt = t.seq
	}
}
