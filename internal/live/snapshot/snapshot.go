// Package snapshot is the format of a live table's snapshot (the engine's
// state, the seq and the time of play, checked by a version and a
// checksum) and the writer that stores the tables' snapshots in batches.
package snapshot

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

// Version is the format of what Encode writes.
const Version = 1

// header is the length of a snapshot before the engine's state:
// version (1), checksum of the rest (4), seq (8), time of play in
// nanoseconds (8).
const header = 1 + 4 + 8 + 8

// Encode encodes the table state of a game at seq: its engine and its
// time of play.
func Encode(eng engine.Engine, seq int64, play time.Duration) []byte {
	b := make([]byte, header, header+4096)
	b[0] = Version
	binary.LittleEndian.PutUint64(b[5:], uint64(seq))
	binary.LittleEndian.PutUint64(b[13:], uint64(play))
	b = eng.AppendState(b)
	binary.LittleEndian.PutUint32(b[1:], crc32.ChecksumIEEE(b[5:]))
	return b
}

// ErrFormat refuses a snapshot that cannot be loaded.
var ErrFormat = errors.New("snapshot: the snapshot is of another format or damaged")

// Load gives eng, fresh from the game's header, the state of
// snapshot b, which must be of seq; it returns the time of play then.
func Load(eng engine.Engine, b []byte, seq int64) (time.Duration, error) {
	if len(b) < header || b[0] != Version ||
		binary.LittleEndian.Uint32(b[1:]) != crc32.ChecksumIEEE(b[5:]) ||
		int64(binary.LittleEndian.Uint64(b[5:])) != seq {
		return 0, ErrFormat
	}
	if err := eng.LoadState(b[header:]); err != nil {
		return 0, errors.Join(ErrFormat, err)
	}
	return time.Duration(binary.LittleEndian.Uint64(b[13:])), nil
}

// Writer writes the tables' snapshots to the store in batches, on a
// goroutine of its own, so that a table never waits for the store on its
// account and many tables stopping at once (a shutdown) cost one
// transaction a batch.
type Writer struct {
	st      store.Snapshots
	log     *slog.Logger
	timeout time.Duration
	in      chan store.Snapshot
	done    chan struct{}
}

// Batch is the most snapshots one transaction writes, and the queue's
// room.
const Batch = 256

// NewWriter starts a writer to st; timeout bounds each batch's write.
func NewWriter(st store.Snapshots, log *slog.Logger, timeout time.Duration) *Writer {
	w := &Writer{st: st, log: log, timeout: timeout, in: make(chan store.Snapshot, Batch), done: make(chan struct{})}
	go w.run()
	return w
}

// Put queues s; with wait it waits for room, else it reports false when
// there is none.
func (w *Writer) Put(s store.Snapshot, wait bool) bool {
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

// Close writes what is queued and stops the writer; no Put may follow.
func (w *Writer) Close() {
	close(w.in)
	<-w.done
}

func (w *Writer) run() {
	defer close(w.done)
	batch := make([]store.Snapshot, 0, Batch)
	for s := range w.in {
		batch = append(batch[:0], s)
	gather:
		for len(batch) < Batch {
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
func (w *Writer) write(batch []store.Snapshot) {
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
		w.log.Warn("live: store snapshots", "snapshots", len(out), "err", err)
	}
}
