package migrations

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/pressly/goose/v3"

	"dsol/internal/rating"
)

// RatingsVersion is the migration that decides again, under the rules of
// package rating, every race decided before them: a Go migration, the same
// in both dialects, in the transaction goose runs it in.
const RatingsVersion = 17

// deletedPlayer stands in the seats of players who deleted their data
// (store.DeletedPlayerID); it has no rating of its own.
const deletedPlayer = "deleted"

// ratingsMigration is RatingsVersion for dialect. Down keeps the decisions
// (the rules before cannot be told from them).
func ratingsMigration(dialect string) *goose.Migration {
	return goose.NewGoMigration(RatingsVersion,
		&goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error { return Rerate(ctx, tx, dialect) }},
		&goose.GoFunc{RunTx: func(context.Context, *sql.Tx) error { return nil }})
}

// decided is a stored race decision, with what the rules decide from.
type decided struct {
	game       string
	seats      [2]string
	flag       string
	gaps       [2]time.Duration
	at         time.Time
	result     []byte
	actions    [2]int
	begin, end time.Time // its first and last actions
}

// Rerate decides every stored race again under the rules of package
// rating, in the order they ended, from what is stored: the seats, the
// result, each seat's actions and median gap, whether the deal was chosen
// (the old decision's flag); it rewrites each decision and the ratings of
// every player (none for a player no rated race moved). tx is a
// transaction of dialect.
func Rerate(ctx context.Context, tx *sql.Tx, dialect string) error {
	races, err := readDecided(ctx, tx, dialect)
	if err != nil {
		return err
	}
	type current struct {
		r     rating.Rating
		races int
		at    time.Time
	}
	ratings := map[string]*current{}
	of := func(id string) *current {
		c, ok := ratings[id]
		if !ok {
			c = &current{r: rating.Start()}
			ratings[id] = c
		}
		return c
	}
	pairs := map[[2]string][]time.Time{} // the times of each pair's rated races
	for _, d := range races {
		a, b := of(d.seats[0]), of(d.seats[1])
		key := d.seats
		if key[1] < key[0] {
			key[0], key[1] = key[1], key[0]
		}
		f := rating.RaceFacts{ChosenDeal: d.flag == rating.FlagChosenDeal, Actions: d.actions, Played: d.end.Sub(d.begin),
			MedianGap: d.gaps, Score: scoreOf(d.result)}
		for _, t := range pairs[key] {
			if t.After(d.at.Add(-rating.PairWindow)) {
				f.PairRated++
			}
		}
		dec := rating.DecideRace(f, [2]rating.Rating{a.r, b.r})
		after := [2]int{a.races, b.races}
		if dec.Rated {
			after[0]++
			after[1]++
		}
		if _, err := tx.ExecContext(ctx, `UPDATE race_ratings SET rated = $1, flag = $2,
			before1_rating = $3, before1_deviation = $4, before1_volatility = $5, before1_races = $6,
			before2_rating = $7, before2_deviation = $8, before2_volatility = $9, before2_races = $10,
			after1_rating = $11, after1_deviation = $12, after1_volatility = $13, after1_races = $14,
			after2_rating = $15, after2_deviation = $16, after2_volatility = $17, after2_races = $18
			WHERE game_id = $19`,
			dec.Rated, dec.Flag,
			a.r.Rating, a.r.Deviation, a.r.Volatility, a.races, b.r.Rating, b.r.Deviation, b.r.Volatility, b.races,
			dec.After[0].Rating, dec.After[0].Deviation, dec.After[0].Volatility, after[0],
			dec.After[1].Rating, dec.After[1].Deviation, dec.After[1].Volatility, after[1], d.game); err != nil {
			return fmt.Errorf("migrations: rerate %s: %w", d.game, err)
		}
		if dec.Rated {
			pairs[key] = append(pairs[key], d.at)
			a.r, a.races, a.at = dec.After[0], after[0], d.at
			b.r, b.races, b.at = dec.After[1], after[1], d.at
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM ratings`); err != nil {
		return fmt.Errorf("migrations: rerate: %w", err)
	}
	ids := make([]string, 0, len(ratings))
	for id, c := range ratings {
		if c.races > 0 && id != deletedPlayer {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		c := ratings[id]
		if _, err := tx.ExecContext(ctx, `INSERT INTO ratings (player_id, rating, deviation, volatility, races, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, id, c.r.Rating, c.r.Deviation, c.r.Volatility, c.races, timeArg(dialect, c.at)); err != nil {
			return fmt.Errorf("migrations: rerate %s: %w", id, err)
		}
	}
	return nil
}

// readDecided reads the stored decisions in the order they were made, and
// what each race's seats did.
func readDecided(ctx context.Context, tx *sql.Tx, dialect string) ([]*decided, error) {
	rows, err := tx.QueryContext(ctx, `SELECT r.game_id, r.seat1, r.seat2, r.flag, r.gap1_ms, r.gap2_ms, r.at, g.result
		FROM race_ratings AS r JOIN games AS g ON g.id = r.game_id ORDER BY r.at, r.game_id`)
	if err != nil {
		return nil, fmt.Errorf("migrations: rerate: %w", err)
	}
	var races []*decided
	byID := map[string]*decided{}
	for rows.Next() {
		d := &decided{}
		var gap1, gap2 int64
		var at any
		var result sql.NullString
		if err := rows.Scan(&d.game, &d.seats[0], &d.seats[1], &d.flag, &gap1, &gap2, &at, &result); err != nil {
			rows.Close()
			return nil, fmt.Errorf("migrations: rerate: %w", err)
		}
		d.gaps = [2]time.Duration{time.Duration(gap1) * time.Millisecond, time.Duration(gap2) * time.Millisecond}
		d.at, d.result = timeOf(at), []byte(result.String)
		races = append(races, d)
		byID[d.game] = d
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("migrations: rerate: %w", err)
	}
	rows, err = tx.QueryContext(ctx, `SELECT a.game_id, a.seat, COUNT(*), MIN(a.at), MAX(a.at)
		FROM actions AS a JOIN race_ratings AS r ON r.game_id = a.game_id GROUP BY a.game_id, a.seat`)
	if err != nil {
		return nil, fmt.Errorf("migrations: rerate: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var game string
		var seat, n int
		var first, last any
		if err := rows.Scan(&game, &seat, &n, &first, &last); err != nil {
			return nil, fmt.Errorf("migrations: rerate: %w", err)
		}
		d := byID[game]
		if d == nil || seat < 1 || seat > 2 {
			continue
		}
		d.actions[seat-1] = n
		if b := timeOf(first); d.begin.IsZero() || b.Before(d.begin) {
			d.begin = b
		}
		if e := timeOf(last); e.After(d.end) {
			d.end = e
		}
	}
	return races, rows.Err()
}

// scoreOf is seat 1's score in a stored race result.
func scoreOf(result []byte) float64 {
	var r struct {
		Winner *int `json:"winner"`
	}
	if json.Unmarshal(result, &r) != nil || r.Winner == nil {
		return 0.5
	}
	switch *r.Winner {
	case 1:
		return 1
	case 2:
		return 0
	}
	return 0.5
}

// timeOf reads a stored time: microseconds since the epoch (SQLite) or a
// timestamp (PostgreSQL).
func timeOf(v any) time.Time {
	switch v := v.(type) {
	case int64:
		return time.UnixMicro(v).UTC()
	case time.Time:
		return v.UTC()
	}
	return time.Time{}
}

// timeArg is a time as dialect stores it.
func timeArg(dialect string, t time.Time) any {
	if dialect == SQLite {
		return t.UnixMicro()
	}
	return t
}
