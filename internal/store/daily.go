package store

import (
	"database/sql"
	"errors"
	"time"
)

// DailyChallenge is the deal of one UTC day and mode of the daily
// challenge (package daily), the same for every player.
type DailyChallenge struct {
	Day       string // YYYY-MM-DD, UTC
	Mode      string // D1N, D3N
	Code      string // a secret DS2 code
	CreatedAt time.Time
}

// DailyEntry is a player's one game of a daily challenge.
type DailyEntry struct {
	Day       string
	Mode      string
	PlayerID  string
	GameID    string
	CreatedAt time.Time
}

// LeaderboardQuery selects the leaderboard of a daily challenge.
type LeaderboardQuery struct {
	Day, Mode string
	// Begin is when the day began: only the players created before it are
	// ranked and counted (an account made that day to see the deal is not).
	Begin time.Time
	// Player's own entry is returned as You, ranked or not.
	Player string
	// Limit is how many of the ordered entries to return (0: none, only You
	// and the count).
	Limit int
}

// Leaderboard is a daily challenge's entries in the order of LeaderboardSQL:
// the wins, clean above assisted, then fewer seconds of play, then fewer
// moves, then who won first (the time of the winning action), then by
// player id; each win has its own rank (1, 2, …: no two share one). The
// entries not won follow, unranked (Rank 0), by when they were started.
type Leaderboard struct {
	Entries []DailyRow // the first Limit entries of the ranked players
	You     *DailyRow  // the caller's entry, or nil if they have none
	Players int        // the entries of the ranked players, won or not
}

// DailyRow is one entry of a leaderboard. Seconds and Moves are the last
// action's tally (zero for a game without actions). Ranked is false for a
// player created on the day itself or later (never in Entries).
type DailyRow struct {
	Rank     int // 1-based among the wins; 0 for an entry not won or not ranked
	PlayerID string
	Name     string
	GameID   string
	Won      bool
	Clean    bool // won without assistance (assistedWin)
	Play     time.Duration
	Moves    int
	Ranked   bool
}

// LeaderboardSQL is the leaderboard query of a daily challenge, the same
// text in both dialects: $1 the day, $2 the mode, $3 when the day began (the
// dialect's time), $4 the caller, $5 the limit. It returns one row of the
// count of ranked entries, then, joined to it, the ranked entries in order
// up to the limit and the caller's entry: players, rank (NULL: not won),
// ranked, listed (within the limit), player id, name, game id, won, clean, play (ms), moves. Each
// entry's figures are its game's last action's tally, as in the statistics;
// assistedWin says which wins were assisted. The entries are found by the
// key of daily_entries, each game's last action by the key of actions.
const LeaderboardSQL = `WITH entries AS (
	SELECT d.player_id, d.created_at AS entered, g.id, g.status, g.hints, p.name,
		CASE WHEN p.created_at < $3 THEN 1 ELSE 0 END AS ranked,
		(SELECT MAX(m.seq) FROM actions AS m WHERE m.game_id = g.id) AS last_seq
	FROM daily_entries AS d
	JOIN games AS g ON g.id = d.game_id
	JOIN players AS p ON p.id = d.player_id
	WHERE d.day = $1 AND d.mode = $2
),
figures AS (
	SELECT g.player_id, g.entered, g.id, g.name, g.ranked,
		CASE WHEN g.status = 'won' THEN 1 ELSE 0 END AS won,
		CASE WHEN g.status = 'won' AND NOT ` + assistedWin + ` THEN 1 ELSE 0 END AS clean,
		a.play_ms, a.moves, a.at AS last_at
	FROM entries AS g
	LEFT JOIN actions AS a ON a.game_id = g.id AND a.seq = g.last_seq
),
ordered AS (
	SELECT f.*, ROW_NUMBER() OVER (PARTITION BY f.ranked ORDER BY f.won DESC, f.clean DESC,
		CASE WHEN f.won = 1 THEN f.play_ms END, CASE WHEN f.won = 1 THEN f.moves END,
		CASE WHEN f.won = 1 THEN f.last_at END, f.entered, f.player_id) AS pos
	FROM figures AS f
),
counted AS (
	SELECT COUNT(*) AS players FROM figures WHERE ranked = 1
)
SELECT c.players, CASE WHEN o.won = 1 AND o.ranked = 1 THEN o.pos END, o.ranked,
	CASE WHEN o.ranked = 1 AND o.pos <= $5 THEN 1 ELSE 0 END, o.player_id, o.name, o.id,
	o.won, o.clean, o.play_ms, o.moves
FROM counted AS c
LEFT JOIN ordered AS o ON (o.ranked = 1 AND o.pos <= $5) OR o.player_id = $4
ORDER BY o.ranked DESC, o.pos`

// ReadLeaderboard reads the rows of LeaderboardSQL for the caller player.
func ReadLeaderboard(rows Rows, player string) (Leaderboard, error) {
	lb := Leaderboard{Entries: []DailyRow{}}
	for rows.Next() {
		var rank, ranked, listed, won, clean, play, moves sql.NullInt64
		var id, name, game sql.NullString
		if err := rows.Scan(&lb.Players, &rank, &ranked, &listed, &id, &name, &game, &won, &clean, &play, &moves); err != nil {
			return Leaderboard{}, err
		}
		if !id.Valid {
			continue // no entry: the count alone
		}
		r := DailyRow{Rank: int(rank.Int64), PlayerID: id.String, Name: name.String, GameID: game.String,
			Won: won.Int64 == 1, Clean: clean.Int64 == 1, Play: time.Duration(play.Int64) * time.Millisecond,
			Moves: int(moves.Int64), Ranked: ranked.Int64 == 1}
		if r.PlayerID == player {
			you := r
			lb.You = &you
		}
		if listed.Int64 == 1 {
			lb.Entries = append(lb.Entries, r)
		}
	}
	return lb, rows.Err()
}

// DailyWinsSQL lists the days (distinct) on which player $1 won a daily
// challenge of any mode, by the daily_entries_player index.
const DailyWinsSQL = `SELECT DISTINCT d.day FROM daily_entries AS d JOIN games AS g ON g.id = d.game_id
	WHERE d.player_id = $1 AND g.status = 'won' ORDER BY d.day`

// ErrEntryExists is what a store's StartDaily returns inside its
// transaction when the player has an entry already, to undo the game it
// inserted; StartDaily then answers with the stored entry.
var ErrEntryExists = errors.New("store: the player has an entry of this challenge")
