package live

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"time"

	"dsol/internal/engine"
	"dsol/internal/store"
)

// A table stores a snapshot of its game every SnapshotEvery actions — the
// engine's state (engine.Engine.AppendState), the seq it is at and the
// time of play so far — so that it comes back from the store by reading
// the snapshot and the actions after it, however long the game: the actions
// before it are read only for a resume, a replay or the game's pace. A
// snapshot is written after its actions are durable, off the table's
// goroutine, and only the newest is kept; one that cannot be read (another
// build's format, a damaged row) is passed over and the log replayed whole.
const SnapshotEvery = 128

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

// snapshot stores the table's state as a snapshot, off its goroutine,
// when its seq passed a multiple of SnapshotEvery since the last one and
// none is being written. A failure is logged: the next one tries again.
func (t *Table) snapshot() {
	if t.seq/SnapshotEvery == t.snapAt/SnapshotEvery || t.snapping.Load() {
		return
	}
	s := store.Snapshot{GameID: t.id, Seq: t.seq, State: snapshotOf(t.eng, t.seq, t.play), At: t.cfg.Clock()}
	t.snapAt = t.seq
	t.snapping.Store(true)
	t.cfg.bg.Add(1)
	go func() {
		defer t.cfg.bg.Done()
		defer t.snapping.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), t.cfg.StoreTimeout)
		defer cancel()
		if err := t.cfg.Store.PutSnapshot(ctx, s); err != nil {
			t.cfg.Logger.Warn("table: store a snapshot", "game", t.id, "seq", s.Seq, "err", err)
		}
	}()
}
