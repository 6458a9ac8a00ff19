// Package postgres is the production store of dsol on PostgreSQL (and
// CockroachDB, which speaks the same SQL), through pgx/v5 and its pool.
//
// The schema is migrated on Open with goose (through database/sql and pgx's
// stdlib driver) under a session advisory lock, so several replicas can start at
// once. Action batches are written with COPY inside one transaction. Unique
// violations (SQLSTATE 23505) become store.ErrConflict, foreign key violations
// (23503: the game or player does not exist) store.ErrNotFound, and lost or
// refused connections store.ErrUnavailable.
//
// JSON columns are text, so they read back byte for byte as written; times are
// timestamptz (microsecond precision), read back in UTC.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"dsol/internal/store"
	"dsol/migrations"
)

// maxAttempts bounds the retries of a transaction that failed with a
// serialization failure or a deadlock (frequent under CockroachDB's SERIALIZABLE).
const maxAttempts = 5

// Store is the PostgreSQL implementation of store.Store.
type Store struct {
	pool *pgxpool.Pool
}

var _ store.Store = (*Store)(nil)

// Open connects to the database at url (a postgres:// URL or a key=value
// connection string; pool settings such as pool_max_conns are accepted) and
// brings its schema up to date.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: parse url: %w", err)
	}
	return OpenConfig(ctx, cfg)
}

// OpenConfig is Open with a parsed pool configuration. The migrations use the
// same connection settings (cfg.ConnConfig), search_path included.
func OpenConfig(ctx context.Context, cfg *pgxpool.Config) (*Store, error) {
	if err := migrate(ctx, cfg.ConnConfig); err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, wrap("connect", err)
	}
	s := &Store{pool: pool}
	if err := s.Ping(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// Migrate brings the schema of the database at url up to date, for
// `dsol migrate`. Open migrates too.
func Migrate(ctx context.Context, url string) error {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return fmt.Errorf("postgres: parse url: %w", err)
	}
	return migrate(ctx, cfg)
}

// migrate applies the migrations through a short-lived database/sql handle.
func migrate(ctx context.Context, cfg *pgx.ConnConfig) error {
	db := stdlib.OpenDB(*cfg.Copy())
	defer db.Close()
	if err := migrations.Apply(ctx, db, migrations.Postgres); err != nil {
		return wrap("migrate", err)
	}
	return nil
}

// Ping implements store.Store.
func (s *Store) Ping(ctx context.Context) error {
	return wrap("ping", s.pool.Ping(ctx))
}

// Close implements store.Store.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// wrap maps pgx errors onto the store's errors.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("postgres: %s: %w", op, store.ErrNotFound)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "23505": // unique_violation
			return fmt.Errorf("postgres: %s: %w: %w", op, store.ErrConflict, err)
		case pe.Code == "23503": // foreign_key_violation
			return fmt.Errorf("postgres: %s: %w: %w", op, store.ErrNotFound, err)
		case strings.HasPrefix(pe.Code, "08"), // connection exception
			strings.HasPrefix(pe.Code, "53"), // insufficient resources: disk_full, out_of_memory, too_many_connections
			pe.Code == "57P01",               // admin_shutdown
			pe.Code == "57P02",               // crash_shutdown
			pe.Code == "57P03":               // cannot_connect_now
			return fmt.Errorf("postgres: %s: %w: %w", op, store.ErrUnavailable, err)
		}
		return fmt.Errorf("postgres: %s: %w", op, err)
	}
	if unreachable(err) {
		return fmt.Errorf("postgres: %s: %w: %w", op, store.ErrUnavailable, err)
	}
	return fmt.Errorf("postgres: %s: %w", op, err)
}

// unreachable reports whether err means the server could not be reached or the
// connection was lost (as opposed to an error of the statement).
func unreachable(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) ||
		pgconn.SafeToRetry(err) || pgconn.Timeout(err) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE)
}

// retryable reports a serialization failure or a deadlock: the transaction may
// simply be run again.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// inTx runs fn in a transaction (pgx.BeginFunc), again when it failed with a
// serialization failure or a deadlock.
func (s *Store) inTx(ctx context.Context, fn func(pgx.Tx) error) error {
	var err error
	for attempt := 1; ; attempt++ {
		err = pgx.BeginFunc(ctx, s.pool, fn)
		if err == nil || !retryable(err) || attempt == maxAttempts || ctx.Err() != nil {
			return err
		}
		time.Sleep(time.Duration(attempt) * time.Millisecond)
	}
}

func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nullBytes(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

// CreatePlayer implements store.Store: the player and its first token, in
// one transaction.
func (s *Store) CreatePlayer(ctx context.Context, p store.Player) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		// players.token_hash too, for the nodes of the release before
		// (see migration 00008); its trigger writes the tokens row.
		if _, err := tx.Exec(ctx, `INSERT INTO players (id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)`,
			p.ID, p.Name, p.TokenHash, p.CreatedAt); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO tokens (hash, player_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (hash) DO NOTHING`,
			p.TokenHash, p.ID, p.CreatedAt)
		return err
	})
	return wrap("create player", err)
}

func scanPlayer(row pgx.Row, hash []byte) (store.Player, error) {
	p := store.Player{TokenHash: hash}
	if err := row.Scan(&p.ID, &p.Name, &p.CreatedAt); err != nil {
		return store.Player{}, err
	}
	p.CreatedAt = p.CreatedAt.UTC()
	return p, nil
}

// PlayerByTokenHash implements store.Store.
func (s *Store) PlayerByTokenHash(ctx context.Context, hash []byte) (store.Player, error) {
	p, err := scanPlayer(s.pool.QueryRow(ctx,
		`SELECT p.id, p.name, p.created_at FROM tokens AS t JOIN players AS p ON p.id = t.player_id WHERE t.hash = $1`, hash), hash)
	return p, wrap("player by token", err)
}

// Player implements store.Store.
func (s *Store) Player(ctx context.Context, id string) (store.Player, error) {
	p, err := scanPlayer(s.pool.QueryRow(ctx,
		`SELECT id, name, created_at FROM players WHERE id = $1`, id), nil)
	return p, wrap("player", err)
}

// Tokens implements store.Store.
func (s *Store) Tokens(ctx context.Context, playerID string) ([]store.Token, error) {
	rows, err := s.pool.Query(ctx, `SELECT hash, created_at FROM tokens WHERE player_id = $1 ORDER BY created_at, hash`, playerID)
	if err != nil {
		return nil, wrap("tokens", err)
	}
	toks, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Token, error) {
		var t store.Token
		err := row.Scan(&t.Hash, &t.CreatedAt)
		t.CreatedAt = t.CreatedAt.UTC()
		return t, err
	})
	if toks == nil {
		toks = []store.Token{}
	}
	return toks, wrap("tokens", err)
}

// RevokeToken implements store.Store.
func (s *Store) RevokeToken(ctx context.Context, hash []byte) error {
	var tag pgconn.CommandTag
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE players SET token_hash = NULL WHERE token_hash = $1`, hash); err != nil {
			return err
		}
		var err error
		tag, err = tx.Exec(ctx, `DELETE FROM tokens WHERE hash = $1`, hash)
		return err
	})
	return affected("revoke token", tag, err)
}

// RevokeTokens implements store.Store.
func (s *Store) RevokeTokens(ctx context.Context, playerID string) (int, error) {
	var tag pgconn.CommandTag
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE players SET token_hash = NULL WHERE id = $1`, playerID); err != nil {
			return err
		}
		var err error
		tag, err = tx.Exec(ctx, `DELETE FROM tokens WHERE player_id = $1`, playerID)
		return err
	})
	return int(tag.RowsAffected()), wrap("revoke tokens", err)
}

// DeletePlayer implements store.Store in one transaction that first locks
// the player's row and games, so that nobody joins or changes them meanwhile.
func (s *Store) DeletePlayer(ctx context.Context, id string) ([]string, error) {
	var kept []string
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var locked string
		if err := tx.QueryRow(ctx, `SELECT id FROM players WHERE id = $1 FOR UPDATE`, id).Scan(&locked); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `SELECT id FROM games WHERE seat1 = $1 OR seat2 = $1 FOR UPDATE`, id); err != nil {
			return err
		}
		for _, q := range []string{
			`DELETE FROM tokens WHERE player_id = $1`,
			`DELETE FROM link_codes WHERE player_id = $1`,
			`DELETE FROM blocks WHERE player_id = $1 OR blocked_id = $1`,
			`DELETE FROM ratings WHERE player_id = $1`,
			`DELETE FROM daily_entries WHERE player_id = $1`,
			`DELETE FROM actions WHERE game_id IN (SELECT id FROM games WHERE ` + store.OwnGames + `)`,
			`DELETE FROM games WHERE ` + store.OwnGames,
		} {
			if _, err := tx.Exec(ctx, q, id); err != nil {
				return err
			}
		}
		var err error
		if kept, err = ids(ctx, tx, `SELECT id FROM games WHERE seat1 = $1 OR seat2 = $1 ORDER BY id`, id); err != nil {
			return err
		}
		for _, q := range []string{
			`UPDATE games SET seat1 = $2 WHERE seat1 = $1`,
			`UPDATE games SET seat2 = $2 WHERE seat2 = $1`,
			`UPDATE race_ratings SET seat1 = $2 WHERE seat1 = $1`,
			`UPDATE race_ratings SET seat2 = $2 WHERE seat2 = $1`,
		} {
			if _, err := tx.Exec(ctx, q, id, store.DeletedPlayerID); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, `DELETE FROM players WHERE id = $1`, id)
		return err
	})
	if err != nil {
		return nil, wrap("delete player", err)
	}
	if kept == nil {
		kept = []string{}
	}
	return kept, nil
}

// PutLinkCode implements store.Store.
func (s *Store) PutLinkCode(ctx context.Context, c store.LinkCode) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO link_codes (player_id, hash, expires_at, used_at, created_at)
		VALUES ($1, $2, $3, NULL, $4)
		ON CONFLICT (player_id) DO UPDATE SET hash = $2, expires_at = $3, used_at = NULL, created_at = $4`,
		c.PlayerID, c.Hash, c.Expires, c.CreatedAt)
	return wrap("put link code", err)
}

const linkColumns = `player_id, hash, expires_at, used_at, created_at`

func scanLinkCode(row pgx.Row) (store.LinkCode, error) {
	var c store.LinkCode
	var used *time.Time
	if err := row.Scan(&c.PlayerID, &c.Hash, &c.Expires, &used, &c.CreatedAt); err != nil {
		return store.LinkCode{}, err
	}
	c.Expires, c.CreatedAt = c.Expires.UTC(), c.CreatedAt.UTC()
	if used != nil {
		c.UsedAt = used.UTC()
	}
	return c, nil
}

// LinkCode implements store.Store.
func (s *Store) LinkCode(ctx context.Context, playerID string) (store.LinkCode, error) {
	c, err := scanLinkCode(s.pool.QueryRow(ctx, `SELECT `+linkColumns+` FROM link_codes WHERE player_id = $1`, playerID))
	return c, wrap("link code", err)
}

// errSpent ends the transaction of a code used before or expired.
var errSpent = fmt.Errorf("postgres: redeem link code: %w", store.ErrConflict)

// RedeemLinkCode implements store.Store: the code's row is locked FOR
// UPDATE, so it is used once however many redeem it at the same time.
func (s *Store) RedeemLinkCode(ctx context.Context, hash, tokenHash []byte, now time.Time) (store.LinkCode, error) {
	var c store.LinkCode
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		c, err = scanLinkCode(tx.QueryRow(ctx, `SELECT `+linkColumns+` FROM link_codes WHERE hash = $1 FOR UPDATE`, hash))
		if err != nil {
			return err
		}
		if !c.UsedAt.IsZero() || !now.Before(c.Expires) {
			return errSpent
		}
		c.UsedAt = now
		if _, err := tx.Exec(ctx, `UPDATE link_codes SET used_at = $1 WHERE player_id = $2`, now, c.PlayerID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO tokens (hash, player_id, created_at) VALUES ($1, $2, $3)`, tokenHash, c.PlayerID, now)
		return err
	})
	if errors.Is(err, errSpent) {
		return c, err
	}
	if err != nil {
		return store.LinkCode{}, wrap("redeem link code", err)
	}
	return c, nil
}

// RenamePlayer implements store.Store.
func (s *Store) RenamePlayer(ctx context.Context, id, name string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE players SET name = $1, renamed_from = NULL, renamed_at = NULL WHERE id = $2`, name, id)
	return affected("rename player", tag, err)
}

// affected maps an UPDATE that matched no row to store.ErrNotFound.
func affected(op string, tag pgconn.CommandTag, err error) error {
	if err != nil {
		return wrap(op, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("postgres: %s: %w", op, store.ErrNotFound)
	}
	return nil
}

// CreateGame implements store.Store. Seat players must exist (store.ErrNotFound).
func (s *Store) CreateGame(ctx context.Context, g store.Game) error {
	return createGame(ctx, s.pool, g)
}

// createGame is CreateGame on the pool or in a transaction.
func createGame(ctx context.Context, q querier, g store.Game) error {
	_, err := q.Exec(ctx, `INSERT INTO games
		(id, kind, code, options, status, seat1, seat2, public, invite_hash, series_id, series_game, result, created_at, updated_at, salt)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
		g.ID, g.Kind, g.Code, nullBytes(g.Options), g.Status, g.Seats[0], nullString(g.Seats[1]),
		g.Public, nullBytes(g.InviteHash), nullString(g.SeriesID), g.SeriesGame, nullBytes(g.Result),
		g.CreatedAt, g.UpdatedAt, nullBytes(g.Salt))
	return wrap("create game", err)
}

const gameColumns = `id, kind, code, options, status, seat1, COALESCE(seat2, ''), public,
	invite_hash, COALESCE(series_id, ''), series_game, result, created_at, updated_at, salt, hints, checked`

func scanGame(row pgx.Row) (store.Game, error) {
	var g store.Game
	if err := row.Scan(&g.ID, &g.Kind, &g.Code, &g.Options, &g.Status, &g.Seats[0], &g.Seats[1],
		&g.Public, &g.InviteHash, &g.SeriesID, &g.SeriesGame, &g.Result, &g.CreatedAt, &g.UpdatedAt, &g.Salt, &g.Hints, &g.Checked); err != nil {
		return store.Game{}, err
	}
	g.Options, g.InviteHash, g.Result, g.Salt = nullBytes(g.Options), nullBytes(g.InviteHash), nullBytes(g.Result), nullBytes(g.Salt)
	g.CreatedAt, g.UpdatedAt = g.CreatedAt.UTC(), g.UpdatedAt.UTC()
	return g, nil
}

// Game implements store.Store.
func (s *Store) Game(ctx context.Context, id string) (store.Game, error) {
	g, err := scanGame(s.pool.QueryRow(ctx, `SELECT `+gameColumns+` FROM games WHERE id = $1`, id))
	return g, wrap("game", err)
}

// UpdateGame implements store.Store.
func (s *Store) UpdateGame(ctx context.Context, g store.Game) error {
	return updateGame(ctx, s.pool, "update game", g)
}

// querier is the pool or a transaction.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// updateGame is UpdateGame on the pool or in a transaction.
func updateGame(ctx context.Context, q querier, op string, g store.Game) error {
	tag, err := q.Exec(ctx, `UPDATE games
		SET status = $1, seat1 = $2, seat2 = $3, public = $4, result = $5, updated_at = $6
		WHERE id = $7`,
		g.Status, g.Seats[0], nullString(g.Seats[1]), g.Public, nullBytes(g.Result), g.UpdatedAt, g.ID)
	return affected(op, tag, err)
}

// AddHint implements store.Store.
func (s *Store) AddHint(ctx context.Context, gameID string) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `UPDATE games SET hints = hints + 1 WHERE id = $1 RETURNING hints`, gameID).Scan(&n)
	return n, wrap("add hint", err)
}

// SetChecked implements store.Store.
func (s *Store) SetChecked(ctx context.Context, gameID string) error {
	res, err := s.pool.Exec(ctx, `UPDATE games SET checked = true WHERE id = $1`, gameID)
	return affected("set checked", res, err)
}

// JoinGame implements store.Store.
func (s *Store) JoinGame(ctx context.Context, gameID, playerID string, at time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE games SET seat2 = $1, status = 'playing', updated_at = $2
		WHERE id = $3 AND kind = 'race' AND status = 'waiting' AND seat2 IS NULL`,
		playerID, at, gameID)
	if err != nil {
		return wrap("join game", err) // store.ErrNotFound for an unknown player
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	// Nothing changed: tell a missing game from a taken seat.
	var one int
	if err := s.pool.QueryRow(ctx, `SELECT 1 FROM games WHERE id = $1`, gameID).Scan(&one); err != nil {
		return wrap("join game", err)
	}
	return fmt.Errorf("postgres: join game: %w", store.ErrConflict)
}

// CancelRace implements store.Store.
func (s *Store) CancelRace(ctx context.Context, gameID, playerID string, at time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE games SET status = 'over', public = FALSE, result = NULL, updated_at = $1
		WHERE id = $2 AND kind = 'race' AND status = 'waiting' AND seat1 = $3 AND seat2 IS NULL`,
		at, gameID, playerID)
	if err != nil {
		return wrap("cancel race", err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	var one int
	if err := s.pool.QueryRow(ctx, `SELECT 1 FROM games WHERE id = $1`, gameID).Scan(&one); err != nil {
		return wrap("cancel race", err)
	}
	return fmt.Errorf("postgres: cancel race: %w", store.ErrConflict)
}

// ListGames implements store.Store.
func (s *Store) ListGames(ctx context.Context, q store.GameQuery) ([]store.Game, error) {
	args := []any{q.Player}
	sql := `SELECT ` + gameColumns + ` FROM games WHERE (seat1 = $1 OR seat2 = $1)`
	if q.Status != "" {
		args = append(args, q.Status)
		sql += ` AND status = $` + strconv.Itoa(len(args))
	}
	if q.Kind != "" {
		args = append(args, q.Kind)
		sql += ` AND kind = $` + strconv.Itoa(len(args))
	}
	if q.After.ID != "" {
		args = append(args, q.After.CreatedAt, q.After.ID)
		n := len(args)
		sql += ` AND (created_at < $` + strconv.Itoa(n-1) + ` OR (created_at = $` + strconv.Itoa(n-1) + ` AND id < $` + strconv.Itoa(n) + `))`
	}
	sql += ` ORDER BY created_at DESC, id DESC`
	if q.Limit > 0 {
		args = append(args, q.Limit)
		sql += ` LIMIT $` + strconv.Itoa(len(args))
	}
	return s.games(ctx, "list games", sql, args...)
}

// OpenRaces implements store.Store. A limit <= 0 means no limit.
func (s *Store) OpenRaces(ctx context.Context, limit int) ([]store.Game, error) {
	q := `SELECT ` + gameColumns + ` FROM games
		WHERE kind = 'race' AND public AND status = 'waiting' AND seat2 IS NULL
		ORDER BY created_at, id`
	var args []any
	if limit > 0 {
		args = append(args, limit)
		q += ` LIMIT $1`
	}
	return s.games(ctx, "open races", q, args...)
}

func (s *Store) games(ctx context.Context, op, query string, args ...any) ([]store.Game, error) {
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, wrap(op, err)
	}
	defer rows.Close()
	games := []store.Game{}
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, wrap(op, err)
		}
		games = append(games, g)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(op, err)
	}
	return games, nil
}

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
	rows, err := s.pool.Query(ctx, `SELECT seq, seat, action, COALESCE(client_id, ''), at
		FROM actions WHERE game_id = $1 AND seq > $2 ORDER BY seq`, gameID, afterSeq)
	if err != nil {
		return nil, wrap("actions", err)
	}
	defer rows.Close()
	actions := []store.Action{}
	for rows.Next() {
		a := store.Action{GameID: gameID}
		if err := rows.Scan(&a.Seq, &a.Seat, &a.Action, &a.ClientID, &a.At); err != nil {
			return nil, wrap("actions", err)
		}
		a.At = a.At.UTC()
		actions = append(actions, a)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("actions", err)
	}
	return actions, nil
}

// Stats implements store.Store: the solo query and the race query of the
// store package, in one read-only REPEATABLE READ transaction (one snapshot).
// The solo query reads the figures the triggers of migration 00013 keep.
func (s *Store) Stats(ctx context.Context, playerID string) (store.Stats, error) {
	var st store.Stats
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var since *time.Time
		var err error
		if st.Race, err = store.ScanRaceStats(tx.QueryRow(ctx, store.RaceStatsQuery, playerID), &since); err != nil {
			return err
		}
		if since != nil {
			st.Since = since.UTC()
		}
		rows, err := tx.Query(ctx, soloStatsQuery, playerID)
		if err != nil {
			return err
		}
		defer rows.Close()
		st.Solo, err = store.ReadSoloStats(rows)
		return err
	})
	if err != nil {
		return store.Stats{}, wrap("stats", err)
	}
	return st, nil
}

// soloStatsQuery is the solo statistics query with the reset point of a
// player who never reset as the statistics tables hold it: '-infinity'.
var soloStatsQuery = store.SoloStatsQuery(`'-infinity'`)

// ResetStats implements store.Store.
func (s *Store) ResetStats(ctx context.Context, playerID string, at time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE players SET stats_since = $1 WHERE id = $2`, at, playerID)
	return affected("reset stats", tag, err)
}

// unfinished is the condition of a game that may be abandoned: a solo game in
// play or a race waiting for a second player (the predicate of the
// games_unfinished index).
const unfinished = `((kind = 'solo' AND status = 'playing') OR (kind = 'race' AND status = 'waiting'))`

// abandonedSince is the rest of the condition of an abandoned game: its last
// activity, the later of its header's last change and its last action's time,
// is before $1.
const abandonedSince = `g.updated_at < $1
	AND COALESCE((SELECT a.at FROM actions AS a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1), g.updated_at) < $1`

// abandonedQuery selects the ids of the abandoned games.
const abandonedQuery = `SELECT id FROM games AS g WHERE ` + unfinished + ` AND ` + abandonedSince

// retentionLockID names the transaction-level advisory lock that lets one node
// at a time sweep the games of a schema. Like the migrations' lock it is
// derived from the schema, so that schemas swept independently (tests run
// side by side in one database) do not wait on each other; every node of one
// schema takes the same lock.
func retentionLockID(schema string) int64 {
	h := fnv.New64a()
	h.Write([]byte("dsol retention\x00" + schema))
	return int64(h.Sum64())
}

// DeleteAbandoned implements store.Store in one transaction that first takes
// the sweep's advisory lock (pg_try_advisory_xact_lock: another node sweeping
// makes this call return 0 at once). The candidates are locked FOR UPDATE
// (SKIP LOCKED: a game being written to is not abandoned), which keeps new
// actions out of them until the transaction ends, and then checked again by a
// fresh statement, which sees any action committed before the lock was taken.
func (s *Store) DeleteAbandoned(ctx context.Context, before time.Time, limit int) (int, error) {
	var n int
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		n = 0
		var schema string
		if err := tx.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
			return err
		}
		var locked bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1)`, retentionLockID(schema)).Scan(&locked); err != nil {
			return err
		}
		if !locked {
			return nil
		}
		q := abandonedQuery + ` ORDER BY g.updated_at, g.id`
		args := []any{before}
		if limit > 0 {
			q += ` LIMIT $2`
			args = append(args, limit)
		}
		candidates, err := ids(ctx, tx, q+` FOR UPDATE SKIP LOCKED`, args...)
		if err != nil || len(candidates) == 0 {
			return err
		}
		doomed, err := ids(ctx, tx, abandonedQuery+` AND g.id = ANY($2)`, before, candidates)
		if err != nil || len(doomed) == 0 {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM actions WHERE game_id = ANY($1)`, doomed); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM daily_entries WHERE game_id = ANY($1)`, doomed); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM games WHERE id = ANY($1)`, doomed)
		n = int(tag.RowsAffected())
		return err
	})
	if err != nil {
		return 0, wrap("delete abandoned", err)
	}
	return n, nil
}

// ids runs a query of one text column and collects it.
func ids(ctx context.Context, tx pgx.Tx, query string, args ...any) ([]string, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// AddWinnable implements store.Store: one statement over the arrays of the
// deals' fields.
func (s *Store) AddWinnable(ctx context.Context, deals []store.WinnableDeal) (int, error) {
	if len(deals) == 0 {
		return 0, nil
	}
	modes := make([]string, len(deals))
	numbers := make([]int64, len(deals))
	budgets := make([]int64, len(deals))
	positions := make([]int64, len(deals))
	found := make([]time.Time, len(deals))
	for i, d := range deals {
		modes[i], numbers[i], budgets[i], positions[i], found[i] = d.Mode, int64(d.Deal), d.Budget, d.Positions, d.FoundAt
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO winnable_deals (mode, deal, budget, positions, found_at)
		SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::timestamptz[])
		ON CONFLICT (mode, deal) DO NOTHING`, modes, numbers, budgets, positions, found)
	if err != nil {
		return 0, wrap("add winnable", err)
	}
	return int(tag.RowsAffected()), nil
}

// WinnableDeals implements store.Store.
func (s *Store) WinnableDeals(ctx context.Context) ([]store.WinnableDeal, error) {
	rows, err := s.pool.Query(ctx, `SELECT mode, deal, budget, positions, found_at
		FROM winnable_deals ORDER BY found_at, mode, deal`)
	if err != nil {
		return nil, wrap("winnable deals", err)
	}
	defer rows.Close()
	deals := []store.WinnableDeal{}
	for rows.Next() {
		var d store.WinnableDeal
		var deal int64
		if err := rows.Scan(&d.Mode, &deal, &d.Budget, &d.Positions, &d.FoundAt); err != nil {
			return nil, wrap("winnable deals", err)
		}
		d.Deal, d.FoundAt = uint64(deal), d.FoundAt.UTC()
		deals = append(deals, d)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("winnable deals", err)
	}
	return deals, nil
}

// PlayedCodes implements store.Store.
func (s *Store) PlayedCodes(ctx context.Context, playerID string, codes []string) ([]string, error) {
	if len(codes) == 0 {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT code FROM games
		WHERE seat1 = $1 AND kind = 'solo' AND code = ANY($2)`, playerID, codes)
	if err != nil {
		return nil, wrap("played codes", err)
	}
	played, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return played, wrap("played codes", err)
}
