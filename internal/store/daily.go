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
	// Begin and End are when the day began and when it closed: only the
	// wins stored before End count.
	Begin, End time.Time
	// The rules of a ranked entry (package daily): its player had played,
	// before Begin, a solo game (any: a daily challenge's too) of at least
	// EarlierActions actions; and a won entry was played at a person's
	// pace: its median gap between two actions, stored with the win
	// (FinishDaily), is not under MinGap.
	EarlierActions int
	MinGap         time.Duration
	// Player's own entry is returned as You, ranked or not.
	Player string
	// Limit is how many of the ordered entries to return (0: none, only You
	// and the count).
	Limit int
}

// Why an entry is not ranked (DailyRow.Unranked).
const (
	UnrankedNewAccount = "new_account"
	UnrankedTooFast    = "too_fast"
)

// Leaderboard is a daily challenge's entries in the order of LeaderboardSQL:
// the wins, clean above assisted, then fewer seconds of play, then fewer
// moves, then who won first (the time of the winning action), then by
// player id; each win has its own rank (1, 2, …: no two share one). The
// entries not won follow, unranked (Rank 0), by when they were started.
type Leaderboard struct {
	Entries []DailyRow // the first Limit entries of the ranked players
	You     *DailyRow  // the caller's entry, or nil if they have none
	Players int        // the ranked entries, won or not
}

// DailyRow is one entry of a leaderboard. Seconds and Moves are the last
// action's tally (zero for a game without actions). Won is a win stored
// before the day closed. Ranked is false for an entry that does not rank
// (never in Entries), and Unranked says why.
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
	Unranked string // "" when ranked, else UnrankedNewAccount or UnrankedTooFast
}

// LeaderboardSQL is the leaderboard query of a daily challenge, the same
// text in both dialects: $1 the day, $2 the mode, $3 when the day began and
// $6 when it closed (the dialect's times), $4 the caller, $5 the limit, $7
// MinGap in milliseconds, $8 EarlierActions. It returns one row of the count of ranked entries,
// then, joined to it, the ranked entries in order up to the limit and the
// caller's entry: players, rank (NULL: not won), unranked (0 ranked, 1 a new
// account, 2 too fast), listed (within the limit), player id, name, game
// id, won, clean, play (ms), moves. Each entry's figures are its game's
// last action's tally, as in the statistics; a win counts when that action
// was stored before the close; assistedWin says which wins were assisted.
// The entries are found by the key of daily_entries, each game's last
// action by the key of actions, a player's earlier games by the index
// solo_results_games.
const LeaderboardSQL = `WITH entries AS (
	SELECT d.player_id, d.created_at AS entered, d.gap_ms, g.id, g.status, g.hints, g.checked, p.name,
		CASE WHEN EXISTS (SELECT 1 FROM solo_results AS r JOIN solo_figures AS x ON x.game_id = r.game_id
			WHERE r.player_id = p.id AND r.created_at < $3 AND x.last_seq >= $8) THEN 1 ELSE 0 END AS earlier,
		(SELECT MAX(m.seq) FROM actions AS m WHERE m.game_id = g.id) AS last_seq
	FROM daily_entries AS d
	JOIN games AS g ON g.id = d.game_id
	JOIN players AS p ON p.id = d.player_id
	WHERE d.day = $1 AND d.mode = $2
),
timed AS (
	SELECT g.*, a.play_ms, a.moves, a.at AS last_at,
		CASE WHEN g.status = 'won' AND a.at < $6 THEN 1 ELSE 0 END AS won
	FROM entries AS g
	LEFT JOIN actions AS a ON a.game_id = g.id AND a.seq = g.last_seq
),
figures AS (
	SELECT g.player_id, g.entered, g.id, g.name, g.won, g.play_ms, g.moves, g.last_at,
		CASE WHEN g.earlier = 0 THEN 1 WHEN g.won = 1 AND g.gap_ms < $7 THEN 2 ELSE 0 END AS unranked,
		CASE WHEN g.won = 1 AND NOT ` + assistedWin + ` THEN 1 ELSE 0 END AS clean
	FROM timed AS g
),
ordered AS (
	SELECT f.*, CASE WHEN f.unranked = 0 THEN 1 ELSE 0 END AS ranked,
		ROW_NUMBER() OVER (PARTITION BY CASE WHEN f.unranked = 0 THEN 1 ELSE 0 END ORDER BY f.won DESC, f.clean DESC,
		CASE WHEN f.won = 1 THEN f.play_ms END, CASE WHEN f.won = 1 THEN f.moves END,
		CASE WHEN f.won = 1 THEN f.last_at END, f.entered, f.player_id) AS pos
	FROM figures AS f
),
counted AS (
	SELECT COUNT(*) AS players FROM figures WHERE unranked = 0
)
SELECT c.players, CASE WHEN o.won = 1 AND o.ranked = 1 THEN o.pos END, o.unranked,
	CASE WHEN o.ranked = 1 AND o.pos <= $5 THEN 1 ELSE 0 END, o.player_id, o.name, o.id,
	o.won, o.clean, o.play_ms, o.moves
FROM counted AS c
LEFT JOIN ordered AS o ON (o.ranked = 1 AND o.pos <= $5) OR o.player_id = $4
ORDER BY o.ranked DESC, o.pos`

// ReadLeaderboard reads the rows of LeaderboardSQL for the caller player.
func ReadLeaderboard(rows Rows, player string) (Leaderboard, error) {
	lb := Leaderboard{Entries: []DailyRow{}}
	for rows.Next() {
		var rank, unranked, listed, won, clean, play, moves sql.NullInt64
		var id, name, game sql.NullString
		if err := rows.Scan(&lb.Players, &rank, &unranked, &listed, &id, &name, &game, &won, &clean, &play, &moves); err != nil {
			return Leaderboard{}, err
		}
		if !id.Valid {
			continue // no entry: the count alone
		}
		r := DailyRow{Rank: int(rank.Int64), PlayerID: id.String, Name: name.String, GameID: game.String,
			Won: won.Int64 == 1, Clean: clean.Int64 == 1, Play: time.Duration(play.Int64) * time.Millisecond,
			Moves: int(moves.Int64), Ranked: unranked.Int64 == 0}
		switch unranked.Int64 {
		case 1:
			r.Unranked = UnrankedNewAccount
		case 2:
			r.Unranked = UnrankedTooFast
		}
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

// DailyWin is a player's win of a daily challenge: its day and when its
// winning action was stored (a win counts for the streak when that was
// before the day closed).
type DailyWin struct {
	Day string
	At  time.Time
}

// DailyWinsSQL lists the wins of daily challenges of player $1, any mode,
// by day, each with the time of its game's last action, by the
// daily_entries_player index and the key of actions.
const DailyWinsSQL = `SELECT d.day, a.at FROM daily_entries AS d JOIN games AS g ON g.id = d.game_id
	JOIN actions AS a ON a.game_id = g.id AND a.seq = (SELECT MAX(m.seq) FROM actions AS m WHERE m.game_id = g.id)
	WHERE d.player_id = $1 AND g.status = 'won' ORDER BY d.day`

// ErrEntryExists is what a store's StartDaily returns inside its
// transaction when the player has an entry already, to undo the game it
// inserted; StartDaily then answers with the stored entry.
var ErrEntryExists = errors.New("store: the player has an entry of this challenge")
