package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

var actionColumns = []string{"game_id", "seq", "seat", "action", "client_id", "at", "score", "moves", "play_ms"}

// AppendActions implements store.Store: one transaction, one COPY. Actions of a
// game that does not exist fail with store.ErrNotFound.
func (s *Store) AppendActions(ctx context.Context, actions []store.Action) error {
	if len(actions) == 0 {
		return nil
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.CopyFrom(ctx, pgx.Identifier{"actions"}, actionColumns,
			pgx.CopyFromSlice(len(actions), func(i int) ([]any, error) {
				a := &actions[i]
				row := []any{a.GameID, a.Seq, a.Seat, a.Action, nullString(a.ClientID), a.At, nil, nil, nil}
				if t := a.Tally; t != nil {
					row[6], row[7], row[8] = t.Score, t.Moves, t.Play.Milliseconds()
				}
				return row, nil
			}))
		return err
	})
	return wrap("append actions", err)
}

// Actions implements store.Store.
func (s *Store) Actions(ctx context.Context, gameID string, afterSeq int64) ([]store.Action, error) {
	rows, err := s.pool.Query(ctx, stmt.Actions, gameID, afterSeq)
	if err != nil {
		return nil, wrap("actions", err)
	}
	defer rows.Close()
	actions, err := store.Collect(rows, func(r pgx.Rows) (store.Action, error) {
		a := store.Action{GameID: gameID}
		err := r.Scan(&a.Seq, &a.Seat, &a.Action, &a.ClientID, &a.At)
		a.At = a.At.UTC()
		return a, err
	})
	return actions, wrap("actions", err)
}
