// Package sqlite is the embedded store of dsol: one SQLite file in WAL mode,
// through the pure-Go driver modernc.org/sqlite.
//
// Writes go through a single connection whose transactions begin IMMEDIATE, so
// writers queue in Go instead of failing with SQLITE_BUSY on a lock upgrade;
// reads use a separate pool of query-only connections, which WAL lets run
// alongside the writer.
//
// Durability: the database runs with synchronous=FULL. In WAL mode NORMAL
// already survives a crash of the process (a committed transaction is in the WAL
// file, which the OS keeps), but not a power loss or a kernel crash: the last
// commits may be lost because the WAL is not fsynced on every commit. An
// acknowledged action must never be lost, and the group-commit writer
// (store.Committer) turns many actions into one transaction, so the fsync per
// commit that FULL costs is paid once per batch, not once per action.
//
// Times are stored as INTEGER microseconds since the Unix epoch and read back in
// UTC; JSON columns are TEXT.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/bits"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"dsol/internal/store"
	"dsol/migrations"
)

// busyTimeout is how long a connection waits for a lock held by another
// connection (or another process) before SQLITE_BUSY.
const busyTimeout = 10 * time.Second

// maxChunk is the most rows of one INSERT statement of AppendActions, a power
// of two: 9 variables a row stays far below SQLite's limit of 32766
// variables, and a batch of the group commit (256 actions at most by
// default) is one statement.
const maxChunk = 1 << maxChunkLog

const maxChunkLog = 9

// Store is the SQLite implementation of store.Store.
type Store struct {
	w *sql.DB // the single writer connection
	r *sql.DB // query-only reader pool

	// inserts holds the prepared INSERT statements of AppendActions, one
	// for each power of two of rows up to maxChunk, prepared on first use
	// (inserts[i] takes up to 1<<i rows). Preparing compiles the statistics
	// triggers into the statement, which costs far more than inserting a few
	// rows, so it is done once; and a statement of each size would hold
	// about 40 MB.
	insertsMu sync.Mutex
	inserts   [maxChunkLog + 1]*sql.Stmt

	// The checkpointer (checkpoint.go) and its connection.
	ckpt        *sql.DB
	wal         string        // the path of the WAL file
	written     atomic.Bool   // the action log was written since the last checkpoint
	walFull     chan struct{} // (1) wakes the checkpointer: the WAL is past walRestartBytes
	checkpoints checkpoints
	ckptStop    chan struct{}
	ckptDone    chan struct{}
	stopOnce    sync.Once
}

var _ store.Store = (*Store)(nil)

// dsn returns the data source name of the file at path: WAL, the busy timeout,
// synchronous=FULL and foreign keys on every connection; writers begin their
// transactions IMMEDIATE, checkpoint by themselves only past
// writerCheckpointPages of WAL, and cut a WAL file that grew past
// walRestartBytes back to that size when they start the WAL again
// (journal_size_limit); readers are query-only.
func dsn(path string, writer bool) (string, error) {
	if path == "" || strings.ContainsAny(path, "?#") || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return "", fmt.Errorf("sqlite: unsupported database path %q", path)
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.FormatInt(busyTimeout.Milliseconds(), 10)+")")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "foreign_keys(1)")
	if writer {
		q.Set("_txlock", "immediate")
		q.Add("_pragma", "wal_autocheckpoint("+strconv.Itoa(writerCheckpointPages)+")")
		q.Add("_pragma", "journal_size_limit("+strconv.Itoa(walRestartBytes)+")")
	} else {
		q.Add("_pragma", "query_only(1)")
	}
	return path + "?" + q.Encode(), nil
}

// Open opens (creating it if needed) the SQLite database at path, a plain file
// path, and brings its schema up to date.
func Open(ctx context.Context, path string) (*Store, error) {
	wdsn, err := dsn(path, true)
	if err != nil {
		return nil, err
	}
	rdsn, err := dsn(path, false)
	if err != nil {
		return nil, err
	}
	w, err := sql.Open("sqlite", wdsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	if err := migrations.Apply(ctx, w, migrations.SQLite); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", rdsn)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	n := max(4, runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	r.SetConnMaxIdleTime(5 * time.Minute)
	ckpt, err := sql.Open("sqlite", wdsn)
	if err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	ckpt.SetMaxOpenConns(1)
	ckpt.SetMaxIdleConns(1)
	ckpt.SetConnMaxLifetime(0)
	ckpt.SetConnMaxIdleTime(0)
	s := &Store{w: w, r: r, ckpt: ckpt, wal: path + "-wal", walFull: make(chan struct{}, 1),
		ckptStop: make(chan struct{}), ckptDone: make(chan struct{})}
	go s.checkpointer(ckpt)
	if err := s.Ping(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Migrate brings the schema of the SQLite database at path up to date (creating
// the file if needed), for `dsol migrate`. Open migrates too.
func Migrate(ctx context.Context, path string) error {
	s, err := Open(ctx, path)
	if err != nil {
		return err
	}
	return s.Close()
}

// Ping implements store.Store.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.r.PingContext(ctx); err != nil {
		return wrap("ping", err)
	}
	return nil
}

// Close implements store.Store. It checkpoints the WAL into the database file
// when it is the last connection.
func (s *Store) Close() error {
	s.stopOnce.Do(func() { close(s.ckptStop) })
	<-s.ckptDone
	errs := []error{s.ckpt.Close(), s.r.Close()}
	s.insertsMu.Lock()
	for _, st := range s.inserts {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	s.insertsMu.Unlock()
	return errors.Join(append(errs, s.w.Close())...)
}

// wrap maps SQLite errors onto the store's errors: constraint violations become
// store.ErrConflict (unique, primary key) or store.ErrNotFound (a foreign key:
// the game or player referred to does not exist), a database that stays locked
// past the busy timeout becomes store.ErrUnavailable.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("sqlite: %s: %w", op, store.ErrNotFound)
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("sqlite: %s: %w: %w", op, store.ErrConflict, err)
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return fmt.Errorf("sqlite: %s: %w: %w", op, store.ErrNotFound, err)
		}
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL:
			return fmt.Errorf("sqlite: %s: %w: %w", op, store.ErrUnavailable, err)
		}
	}
	return fmt.Errorf("sqlite: %s: %w", op, err)
}

// micros and fromMicros convert times to and from their stored form.
func micros(t time.Time) int64 { return t.UnixMicro() }

func fromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

// nullString stores "" as NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// nullText stores JSON as TEXT, and nil or empty as NULL.
func nullText(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

// nullBlob stores nil or empty as NULL.
func nullBlob(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}

// emptyNil turns an empty byte slice read from a column into nil.
func emptyNil(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

// CreatePlayer implements store.Store: the player and its first token, in
// one transaction. players.token_hash holds the id (migration 00008).
func (s *Store) CreatePlayer(ctx context.Context, p store.Player) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("create player", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO players (id, name, token_hash, created_at) VALUES (?, ?, CAST(? AS BLOB), ?)`,
		p.ID, p.Name, p.ID, micros(p.CreatedAt)); err != nil {
		return wrap("create player", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO tokens (hash, player_id, created_at) VALUES (?, ?, ?)`,
		p.TokenHash, p.ID, micros(p.CreatedAt)); err != nil {
		return wrap("create player", err)
	}
	return wrap("create player", tx.Commit())
}

func scanPlayer(row *sql.Row, hash []byte) (store.Player, error) {
	p := store.Player{TokenHash: hash}
	var created int64
	if err := row.Scan(&p.ID, &p.Name, &created); err != nil {
		return store.Player{}, err
	}
	p.CreatedAt = fromMicros(created)
	return p, nil
}

// PlayerByTokenHash implements store.Store.
func (s *Store) PlayerByTokenHash(ctx context.Context, hash []byte) (store.Player, error) {
	p, err := scanPlayer(s.r.QueryRowContext(ctx,
		`SELECT p.id, p.name, p.created_at FROM tokens AS t JOIN players AS p ON p.id = t.player_id WHERE t.hash = ?`, hash), hash)
	return p, wrap("player by token", err)
}

// Player implements store.Store.
func (s *Store) Player(ctx context.Context, id string) (store.Player, error) {
	p, err := scanPlayer(s.r.QueryRowContext(ctx,
		`SELECT id, name, created_at FROM players WHERE id = ?`, id), nil)
	return p, wrap("player", err)
}

// Tokens implements store.Store.
func (s *Store) Tokens(ctx context.Context, playerID string) ([]store.Token, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT hash, created_at FROM tokens WHERE player_id = ? ORDER BY created_at, hash`, playerID)
	if err != nil {
		return nil, wrap("tokens", err)
	}
	defer rows.Close()
	toks := []store.Token{}
	for rows.Next() {
		var t store.Token
		var created int64
		if err := rows.Scan(&t.Hash, &created); err != nil {
			return nil, wrap("tokens", err)
		}
		t.CreatedAt = fromMicros(created)
		toks = append(toks, t)
	}
	return toks, wrap("tokens", rows.Err())
}

// RevokeToken implements store.Store.
func (s *Store) RevokeToken(ctx context.Context, hash []byte) error {
	res, err := s.w.ExecContext(ctx, `DELETE FROM tokens WHERE hash = ?`, hash)
	return affected("revoke token", res, err)
}

// RevokeTokens implements store.Store.
func (s *Store) RevokeTokens(ctx context.Context, playerID string) (int, error) {
	res, err := s.w.ExecContext(ctx, `DELETE FROM tokens WHERE player_id = ?`, playerID)
	if err != nil {
		return 0, wrap("revoke tokens", err)
	}
	n, err := res.RowsAffected()
	return int(n), wrap("revoke tokens", err)
}

// DeletePlayer implements store.Store: one IMMEDIATE transaction, so no
// game changes seats between the steps.
func (s *Store) DeletePlayer(ctx context.Context, id string) ([]string, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, wrap("delete player", err)
	}
	defer tx.Rollback()
	for _, q := range []string{
		`DELETE FROM tokens WHERE player_id = ?1`,
		`DELETE FROM link_codes WHERE player_id = ?1`,
		`DELETE FROM blocks WHERE player_id = ?1 OR blocked_id = ?1`,
		`DELETE FROM ratings WHERE player_id = ?1`,
		`DELETE FROM daily_entries WHERE player_id = ?1`,
		`DELETE FROM actions WHERE game_id IN (SELECT id FROM games WHERE ` + store.OwnGames + `)`,
		`DELETE FROM games WHERE ` + store.OwnGames,
	} {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return nil, wrap("delete player", err)
		}
	}
	rows, err := tx.QueryContext(ctx, `SELECT id FROM games WHERE seat1 = ?1 OR seat2 = ?1 ORDER BY id`, id)
	if err != nil {
		return nil, wrap("delete player", err)
	}
	kept := []string{}
	for rows.Next() {
		var g string
		if err := rows.Scan(&g); err != nil {
			rows.Close()
			return nil, wrap("delete player", err)
		}
		kept = append(kept, g)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, wrap("delete player", err)
	}
	for _, q := range []string{
		`UPDATE games SET seat1 = ?2 WHERE seat1 = ?1`,
		`UPDATE games SET seat2 = ?2 WHERE seat2 = ?1`,
		`UPDATE race_ratings SET seat1 = ?2 WHERE seat1 = ?1`,
		`UPDATE race_ratings SET seat2 = ?2 WHERE seat2 = ?1`,
	} {
		if _, err := tx.ExecContext(ctx, q, id, store.DeletedPlayerID); err != nil {
			return nil, wrap("delete player", err)
		}
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM players WHERE id = ?`, id)
	if err := affected("delete player", res, err); err != nil {
		return nil, err
	}
	return kept, wrap("delete player", tx.Commit())
}

// PutLinkCode implements store.Store.
func (s *Store) PutLinkCode(ctx context.Context, c store.LinkCode) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO link_codes (player_id, hash, expires_at, used_at, created_at)
		VALUES (?1, ?2, ?3, NULL, ?4)
		ON CONFLICT (player_id) DO UPDATE SET hash = ?2, expires_at = ?3, used_at = NULL, created_at = ?4`,
		c.PlayerID, c.Hash, micros(c.Expires), micros(c.CreatedAt))
	return wrap("put link code", err)
}

const linkColumns = `player_id, hash, expires_at, used_at, created_at`

func scanLinkCode(row scanner) (store.LinkCode, error) {
	var c store.LinkCode
	var expires, created int64
	var used sql.NullInt64
	if err := row.Scan(&c.PlayerID, &c.Hash, &expires, &used, &created); err != nil {
		return store.LinkCode{}, err
	}
	c.Expires, c.CreatedAt = fromMicros(expires), fromMicros(created)
	if used.Valid {
		c.UsedAt = fromMicros(used.Int64)
	}
	return c, nil
}

// LinkCode implements store.Store.
func (s *Store) LinkCode(ctx context.Context, playerID string) (store.LinkCode, error) {
	c, err := scanLinkCode(s.r.QueryRowContext(ctx, `SELECT `+linkColumns+` FROM link_codes WHERE player_id = ?`, playerID))
	return c, wrap("link code", err)
}

// RedeemLinkCode implements store.Store: one IMMEDIATE transaction, so a
// code is used once however many redeem it at the same time.
func (s *Store) RedeemLinkCode(ctx context.Context, hash, tokenHash []byte, now time.Time) (store.LinkCode, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return store.LinkCode{}, wrap("redeem link code", err)
	}
	defer tx.Rollback()
	c, err := scanLinkCode(tx.QueryRowContext(ctx, `SELECT `+linkColumns+` FROM link_codes WHERE hash = ?`, hash))
	if err != nil {
		return store.LinkCode{}, wrap("redeem link code", err)
	}
	if !c.UsedAt.IsZero() || !now.Before(c.Expires) {
		return c, fmt.Errorf("sqlite: redeem link code: %w", store.ErrConflict)
	}
	c.UsedAt = now
	if _, err := tx.ExecContext(ctx, `UPDATE link_codes SET used_at = ? WHERE player_id = ?`, micros(now), c.PlayerID); err != nil {
		return store.LinkCode{}, wrap("redeem link code", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO tokens (hash, player_id, created_at) VALUES (?, ?, ?)`,
		tokenHash, c.PlayerID, micros(now)); err != nil {
		return store.LinkCode{}, wrap("redeem link code", err)
	}
	return c, wrap("redeem link code", tx.Commit())
}

// RenamePlayer implements store.Store.
func (s *Store) RenamePlayer(ctx context.Context, id, name string) error {
	res, err := s.w.ExecContext(ctx, `UPDATE players SET name = ?, renamed_from = NULL, renamed_at = NULL WHERE id = ?`, name, id)
	return affected("rename player", res, err)
}

// affected maps an UPDATE that matched no row to store.ErrNotFound.
func affected(op string, res sql.Result, err error) error {
	if err != nil {
		return wrap(op, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return wrap(op, err)
	}
	if n == 0 {
		return fmt.Errorf("sqlite: %s: %w", op, store.ErrNotFound)
	}
	return nil
}

// CreateGame implements store.Store. Seat players must exist (store.ErrNotFound).
func (s *Store) CreateGame(ctx context.Context, g store.Game) error {
	return createGame(ctx, s.w, g)
}

// createGame is CreateGame on the writer or in a transaction.
func createGame(ctx context.Context, q querier, g store.Game) error {
	_, err := q.ExecContext(ctx, `INSERT INTO games
		(id, kind, code, options, status, seat1, seat2, public, invite_hash, series_id, series_game, result, created_at, updated_at, salt)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.Kind, g.Code, nullText(g.Options), g.Status, g.Seats[0], nullString(g.Seats[1]),
		g.Public, nullBlob(g.InviteHash), nullString(g.SeriesID), g.SeriesGame, nullText(g.Result),
		micros(g.CreatedAt), micros(g.UpdatedAt), nullBlob(g.Salt))
	return wrap("create game", err)
}

const gameColumns = `id, kind, code, options, status, seat1, COALESCE(seat2, ''), public,
	invite_hash, COALESCE(series_id, ''), series_game, result, created_at, updated_at, salt, hints, checked`

type scanner interface{ Scan(dest ...any) error }

func scanGame(row scanner) (store.Game, error) {
	var g store.Game
	var created, updated int64
	if err := row.Scan(&g.ID, &g.Kind, &g.Code, &g.Options, &g.Status, &g.Seats[0], &g.Seats[1],
		&g.Public, &g.InviteHash, &g.SeriesID, &g.SeriesGame, &g.Result, &created, &updated, &g.Salt, &g.Hints, &g.Checked); err != nil {
		return store.Game{}, err
	}
	g.Options, g.InviteHash, g.Result, g.Salt = emptyNil(g.Options), emptyNil(g.InviteHash), emptyNil(g.Result), emptyNil(g.Salt)
	g.CreatedAt, g.UpdatedAt = fromMicros(created), fromMicros(updated)
	return g, nil
}

// Game implements store.Store.
func (s *Store) Game(ctx context.Context, id string) (store.Game, error) {
	g, err := scanGame(s.r.QueryRowContext(ctx, `SELECT `+gameColumns+` FROM games WHERE id = ?`, id))
	return g, wrap("game", err)
}

// UpdateGame implements store.Store.
func (s *Store) UpdateGame(ctx context.Context, g store.Game) error {
	return updateGame(ctx, s.w, "update game", g)
}

// updateGame is UpdateGame on the writer or in a transaction.
func updateGame(ctx context.Context, q querier, op string, g store.Game) error {
	res, err := q.ExecContext(ctx, `UPDATE games
		SET status = ?, seat1 = ?, seat2 = ?, public = ?, result = ?, updated_at = ?
		WHERE id = ?`,
		g.Status, g.Seats[0], nullString(g.Seats[1]), g.Public, nullText(g.Result), micros(g.UpdatedAt), g.ID)
	return affected(op, res, err)
}

// AddHint implements store.Store.
func (s *Store) AddHint(ctx context.Context, gameID string) (int, error) {
	var n int
	err := s.w.QueryRowContext(ctx, `UPDATE games SET hints = hints + 1 WHERE id = ? RETURNING hints`, gameID).Scan(&n)
	return n, wrap("add hint", err)
}

// SetChecked implements store.Store.
func (s *Store) SetChecked(ctx context.Context, gameID string) error {
	res, err := s.w.ExecContext(ctx, `UPDATE games SET checked = 1 WHERE id = ?`, gameID)
	return affected("set checked", res, err)
}

// JoinGame implements store.Store.
func (s *Store) JoinGame(ctx context.Context, gameID, playerID string, at time.Time) error {
	res, err := s.w.ExecContext(ctx, `UPDATE games SET seat2 = ?, status = 'playing', updated_at = ?
		WHERE id = ? AND kind = 'race' AND status = 'waiting' AND seat2 IS NULL`,
		playerID, micros(at), gameID)
	if err != nil {
		return wrap("join game", err) // store.ErrNotFound for an unknown player
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return wrap("join game", err)
	}
	// Nothing changed: tell a missing game from a taken seat.
	var one int
	err = s.w.QueryRowContext(ctx, `SELECT 1 FROM games WHERE id = ?`, gameID).Scan(&one)
	if err != nil {
		return wrap("join game", err)
	}
	return fmt.Errorf("sqlite: join game: %w", store.ErrConflict)
}

// CancelRace implements store.Store.
func (s *Store) CancelRace(ctx context.Context, gameID, playerID string, at time.Time) error {
	res, err := s.w.ExecContext(ctx, `UPDATE games SET status = 'over', public = 0, result = NULL, updated_at = ?
		WHERE id = ? AND kind = 'race' AND status = 'waiting' AND seat1 = ? AND seat2 IS NULL`,
		micros(at), gameID, playerID)
	if err != nil {
		return wrap("cancel race", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return wrap("cancel race", err)
	}
	var one int
	if err := s.w.QueryRowContext(ctx, `SELECT 1 FROM games WHERE id = ?`, gameID).Scan(&one); err != nil {
		return wrap("cancel race", err)
	}
	return fmt.Errorf("sqlite: cancel race: %w", store.ErrConflict)
}

// ListGames implements store.Store.
func (s *Store) ListGames(ctx context.Context, q store.GameQuery) ([]store.Game, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = -1
	}
	sql := `SELECT ` + gameColumns + ` FROM games WHERE (seat1 = ?1 OR seat2 = ?1)`
	if q.Status != "" {
		sql += ` AND status = ?2`
	}
	if q.Kind != "" {
		sql += ` AND kind = ?3`
	}
	if q.After.ID != "" {
		sql += ` AND (created_at < ?4 OR (created_at = ?4 AND id < ?5))`
	}
	sql += ` ORDER BY created_at DESC, id DESC LIMIT ?6`
	return s.games(ctx, "list games", sql, q.Player, q.Status, q.Kind, micros(q.After.CreatedAt), q.After.ID, limit)
}

// OpenRaces implements store.Store. A limit <= 0 means no limit.
func (s *Store) OpenRaces(ctx context.Context, limit int) ([]store.Game, error) {
	if limit <= 0 {
		limit = -1
	}
	return s.games(ctx, "open races", `SELECT `+gameColumns+` FROM games
		WHERE kind = 'race' AND public = 1 AND status = 'waiting' AND seat2 IS NULL
		ORDER BY created_at, id LIMIT ?`, limit)
}

func (s *Store) games(ctx context.Context, op, query string, args ...any) ([]store.Game, error) {
	rows, err := s.r.QueryContext(ctx, query, args...)
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
	rows, err := s.r.QueryContext(ctx, `SELECT seq, seat, action, COALESCE(client_id, ''), at
		FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq`, gameID, afterSeq)
	if err != nil {
		return nil, wrap("actions", err)
	}
	defer rows.Close()
	actions := []store.Action{}
	for rows.Next() {
		a := store.Action{GameID: gameID}
		var at int64
		if err := rows.Scan(&a.Seq, &a.Seat, &a.Action, &a.ClientID, &at); err != nil {
			return nil, wrap("actions", err)
		}
		a.At = fromMicros(at)
		actions = append(actions, a)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("actions", err)
	}
	return actions, nil
}

// Stats implements store.Store: the solo query and the race query of the
// store package, in one read transaction. The solo query reads the figures
// the triggers of migration 00013 keep.
func (s *Store) Stats(ctx context.Context, playerID string) (store.Stats, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return store.Stats{}, wrap("stats", err)
	}
	defer tx.Rollback()
	var st store.Stats
	var since sql.NullInt64
	if st.Race, err = store.ScanRaceStats(tx.QueryRowContext(ctx, store.RaceStatsQuery, playerID), &since); err != nil {
		return store.Stats{}, wrap("stats", err)
	}
	if since.Valid {
		st.Since = fromMicros(since.Int64)
	}
	rows, err := tx.QueryContext(ctx, soloStatsQuery, playerID)
	if err != nil {
		return store.Stats{}, wrap("stats", err)
	}
	defer rows.Close()
	if st.Solo, err = store.ReadSoloStats(rows); err != nil {
		return store.Stats{}, wrap("stats", err)
	}
	return st, nil
}

// never is the reset point of a player who never reset, in the statistics
// tables: minus infinity, below every time (microseconds) there is.
const never = "-9223372036854775807"

// soloStatsQuery is the solo statistics query with SQLite's never.
var soloStatsQuery = store.SoloStatsQuery(never)

// ResetStats implements store.Store.
func (s *Store) ResetStats(ctx context.Context, playerID string, at time.Time) error {
	res, err := s.w.ExecContext(ctx, `UPDATE players SET stats_since = ? WHERE id = ?`, micros(at), playerID)
	return affected("reset stats", res, err)
}

// unfinished is the condition of a game that may be abandoned: a solo game in
// play or a race waiting for a second player. The games_unfinished index has
// the same predicate, word for word, so that SQLite uses it.
const unfinished = `((kind = 'solo' AND status = 'playing') OR (kind = 'race' AND status = 'waiting'))`

// abandonedQuery selects the ids of at most ?2 abandoned games: unfinished, and
// last active before ?1. The last activity of a game is its last action's
// time, else (no action yet) its header's; a header change after the last
// action (a status write) counts too.
const abandonedQuery = `SELECT id FROM games AS g
	WHERE ` + unfinished + ` AND updated_at < ?1
	AND COALESCE((SELECT a.at FROM actions AS a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1), updated_at) < ?1
	ORDER BY updated_at, id LIMIT ?2`

// DeleteAbandoned implements store.Store: one IMMEDIATE transaction, so no
// action is appended to a game between the check and the delete.
func (s *Store) DeleteAbandoned(ctx context.Context, before time.Time, limit int) (int, error) {
	if limit <= 0 {
		limit = -1
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, wrap("delete abandoned", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, abandonedQuery, micros(before), limit)
	if err != nil {
		return 0, wrap("delete abandoned", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, wrap("delete abandoned", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		return 0, wrap("delete abandoned", err)
	}
	if err := rows.Err(); err != nil {
		return 0, wrap("delete abandoned", err)
	}
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `DELETE FROM actions WHERE game_id = ?`, id); err != nil {
			return 0, wrap("delete abandoned", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM daily_entries WHERE game_id = ?`, id); err != nil {
			return 0, wrap("delete abandoned", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM games WHERE id = ?`, id); err != nil {
			return 0, wrap("delete abandoned", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, wrap("delete abandoned", err)
	}
	return len(ids), nil
}

// AddWinnable implements store.Store: one transaction.
func (s *Store) AddWinnable(ctx context.Context, deals []store.WinnableDeal) (int, error) {
	if len(deals) == 0 {
		return 0, nil
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, wrap("add winnable", err)
	}
	defer tx.Rollback()
	added := 0
	for _, d := range deals {
		res, err := tx.ExecContext(ctx, `INSERT INTO winnable_deals (mode, deal, budget, positions, found_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT (mode, deal) DO NOTHING`,
			d.Mode, int64(d.Deal), d.Budget, d.Positions, micros(d.FoundAt))
		if err != nil {
			return 0, wrap("add winnable", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, wrap("add winnable", err)
		}
		added += int(n)
	}
	if err := tx.Commit(); err != nil {
		return 0, wrap("add winnable", err)
	}
	return added, nil
}

// WinnableDeals implements store.Store.
func (s *Store) WinnableDeals(ctx context.Context) ([]store.WinnableDeal, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT mode, deal, budget, positions, found_at
		FROM winnable_deals ORDER BY found_at, mode, deal`)
	if err != nil {
		return nil, wrap("winnable deals", err)
	}
	defer rows.Close()
	deals := []store.WinnableDeal{}
	for rows.Next() {
		var d store.WinnableDeal
		var deal, found int64
		if err := rows.Scan(&d.Mode, &deal, &d.Budget, &d.Positions, &found); err != nil {
			return nil, wrap("winnable deals", err)
		}
		d.Deal, d.FoundAt = uint64(deal), fromMicros(found)
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
	args := make([]any, 0, 1+len(codes))
	args = append(args, playerID)
	for _, c := range codes {
		args = append(args, c)
	}
	q := `SELECT DISTINCT code FROM games WHERE seat1 = ? AND kind = 'solo' AND code IN (?` +
		strings.Repeat(", ?", len(codes)-1) + `)`
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, wrap("played codes", err)
	}
	defer rows.Close()
	var played []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, wrap("played codes", err)
		}
		played = append(played, c)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("played codes", err)
	}
	return played, nil
}
