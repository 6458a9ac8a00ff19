package sqlite

import (
	"context"
	"database/sql"
	"math/bits"
	"strings"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// maxChunk is the most rows of one INSERT statement of AppendActions, a power
// of two: 9 variables a row stays far below SQLite's limit of 32766
// variables, and a batch of the group commit (256 actions at most by
// default) is one statement.
const maxChunk = 1 << maxChunkLog

const maxChunkLog = 9

// insertActions returns the INSERT statement of up to n actions: rows whose
// game_id is NULL fill the rest, and are left out.
func insertActions(n int) string {
	const head = `INSERT INTO actions (game_id, seq, seat, action, client_id, at, score, moves, play_ms) SELECT * FROM (VALUES `
	const row = `(?, ?, ?, ?, ?, ?, ?, ?, ?)`
	const tail = `) WHERE column1 IS NOT NULL`
	var b strings.Builder
	b.Grow(len(head) + n*(len(row)+2) + len(tail))
	b.WriteString(head)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row)
	}
	b.WriteString(tail)
	return b.String()
}

// insertLog is the statement of AppendActions for n actions, 0 < n <=
// maxChunk: inserts[insertLog(n)], the smallest power of two of rows that
// takes n.
func insertLog(n int) int { return bits.Len(uint(n - 1)) }

// prepareInserts prepares the INSERT statements a batch of n actions needs
// (of maxChunk rows, and of the rest) that are not prepared yet. It must run
// outside a transaction: the writer pool has a single connection, which the
// transaction would hold.
func (s *Store) prepareInserts(ctx context.Context, n int) ([maxChunkLog + 1]*sql.Stmt, error) {
	s.insertsMu.Lock()
	defer s.insertsMu.Unlock()
	for _, rows := range [2]int{min(n, maxChunk), n % maxChunk} {
		if i := insertLog(rows); rows > 0 && s.inserts[i] == nil {
			st, err := s.w.PrepareContext(ctx, insertActions(1<<i))
			if err != nil {
				return s.inserts, err
			}
			s.inserts[i] = st
		}
	}
	return s.inserts, nil
}

// AppendActions implements store.Store. A batch of up to maxChunk actions is
// one multi-row INSERT, run on its own: a statement outside an explicit
// transaction is its transaction, so SQLite keeps no statement journal for
// it. Inside a transaction, a statement that may fail halfway (a key taken,
// a game missing) first copies every page it changes to that journal, to
// undo itself alone, and past 64 KiB the journal is a temporary file: about
// two more writes an action in the race pattern, as many as the log's own.
// A larger batch is one IMMEDIATE transaction of INSERTs of maxChunk rows and
// the rest. Actions of a game that does not exist fail with
// store.ErrNotFound. Each write tells the checkpointer how large the WAL
// has grown, and starts it again itself past walForceBytes (checkpoint.go).
func (s *Store) AppendActions(ctx context.Context, actions []store.Action) error {
	if len(actions) == 0 {
		return nil
	}
	inserts, err := s.prepareInserts(ctx, len(actions))
	if err != nil {
		return wrap("append actions", err)
	}
	args := make([]any, 0, 9<<insertLog(min(len(actions), maxChunk)))
	defer s.wrote(ctx)
	if len(actions) <= maxChunk {
		_, err := inserts[insertLog(len(actions))].ExecContext(ctx, actionArgs(args, actions)...)
		return wrap("append actions", err)
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("append actions", err)
	}
	defer tx.Rollback()
	for rest := actions; len(rest) > 0; {
		chunk := rest[:min(len(rest), maxChunk)]
		rest = rest[len(chunk):]
		if _, err := tx.StmtContext(ctx, inserts[insertLog(len(chunk))]).ExecContext(ctx, actionArgs(args[:0], chunk)...); err != nil {
			return wrap("append actions", err)
		}
	}
	return wrap("append actions", tx.Commit())
}

// actionArgs appends the variables of actions' rows to args, and NULLs up
// to the rows of the statement that takes them (see insertActions).
func actionArgs(args []any, actions []store.Action) []any {
	for i := range actions {
		a := &actions[i]
		args = append(args, a.GameID, a.Seq, a.Seat, string(a.Action), nullString(a.ClientID), micros(a.At))
		if t := a.Tally; t != nil {
			args = append(args, t.Score, t.Moves, t.Play.Milliseconds())
		} else {
			args = append(args, nil, nil, nil)
		}
	}
	for range (1<<insertLog(len(actions)) - len(actions)) * 9 {
		args = append(args, nil)
	}
	return args
}

// Actions implements store.Store.
func (s *Store) Actions(ctx context.Context, gameID string, afterSeq int64) ([]store.Action, error) {
	rows, err := s.r.QueryContext(ctx, stmt.Actions, gameID, afterSeq)
	if err != nil {
		return nil, wrap("actions", err)
	}
	defer rows.Close()
	actions, err := store.Collect(rows, func(r *sql.Rows) (store.Action, error) {
		a := store.Action{GameID: gameID}
		var at int64
		err := r.Scan(&a.Seq, &a.Seat, &a.Action, &a.ClientID, &at)
		a.At = fromMicros(at)
		return a, err
	})
	return actions, wrap("actions", err)
}
