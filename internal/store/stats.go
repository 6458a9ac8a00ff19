package store

import (
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"dsol/internal/rating"
)

// Tally is where a solo game stands after one of its actions, stored with the
// action: the score and the move counter the engine reports, and the seconds
// of play so far (the sum of the gaps between the game's actions' times, each
// gap capped at MaxGap). A game's last action holds its figures, so the
// statistics read one row per game instead of its whole log.
type Tally struct {
	Score int
	Moves int
	Play  time.Duration // stored in milliseconds
}

// MaxGap caps each gap between two actions of a game in its seconds of play:
// a player who leaves a game open for an hour has not played for an hour.
const MaxGap = 60 * time.Second

// AddGap returns the seconds of play after an action made at at, when the
// previous action of the game (at prev) left it at play.
func AddGap(play time.Duration, prev, at time.Time) time.Duration {
	return play + max(0, min(at.Sub(prev), MaxGap))
}

// BotPlayerID is the player row of the server's bot, which may hold seat 2
// of a race. Races against it are not rated.
const BotPlayerID = "bot"

// Stats are a player's statistics (Store.Stats).
type Stats struct {
	// Solo has one entry per solo mode, in the order of SoloModes, every
	// mode present.
	Solo []SoloStats
	Race RaceStats
	// Since is the player's reset point (zero: never reset): only games
	// started after it count, but for the race rating.
	Since time.Time
}

// Mode is a solo game mode: draw 1 or 3, "normal" or "vegas" scoring.
type Mode struct {
	Draw    int
	Scoring string
}

// SoloModes are the four solo modes, in the order Stats.Solo lists them.
var SoloModes = []Mode{{1, "normal"}, {1, "vegas"}, {3, "normal"}, {3, "vegas"}}

// SoloStats are the statistics of one solo mode. A game is played once its
// first action is applied. Streaks follow the order the games were started;
// an unwon game breaks a streak once a later game of the mode is played, so
// the latest game, while unwon, breaks nothing yet.
type SoloStats struct {
	Mode
	Played     int
	Won        int
	Assisted   int // won games whose win was assisted (a hint given, or an undo or a finish in the log)
	Streak     int
	BestStreak int
	// BestScore is the best score of a played game, FastestWin the fewest
	// seconds of play of a win, FewestMoves the fewest moves of a win;
	// nil when there is none (or the games predate the tallies).
	BestScore   *int
	FastestWin  *time.Duration
	FewestMoves *int
	Recent      []Recent // the latest RecentGames played games, oldest first
}

// Clean is the number of wins that were not assisted.
func (s SoloStats) Clean() int { return s.Won - s.Assisted }

// RecentGames is how many of the latest games of a mode Stats lists.
const RecentGames = 30

// Recent is one of the latest played games of a mode. Playing marks the
// latest game when it is still unwon (not lost yet). Score, Moves and Play
// are nil for a game stored without tallies.
type Recent struct {
	Won     bool
	Playing bool
	Score   *int
	Moves   *int
	Play    *time.Duration
}

// RaceStats are the statistics of a player's finished races (those with a
// result: a cancelled race does not count). Played, Won, Lost and Drawn
// count every race, Bot the races against the server's bot among them.
// Rating and Deviation are the player's Glicko-2 rating (the ratings
// table: see Store.FinishRace), over every rated race and never reset.
type RaceStats struct {
	RaceCounts
	Bot       RaceCounts
	Rating    float64
	Deviation float64
}

// Provisional reports whether the rating is provisional (rating.IsProvisional).
func (r RaceStats) Provisional() bool {
	return rating.IsProvisional(rating.Rating{Rating: r.Rating, Deviation: r.Deviation})
}

// RaceCounts count finished races by outcome.
type RaceCounts struct {
	Played, Won, Lost, Drawn int
}

// AssistActions is the SQL condition on an action that assists a win: an
// undo or a finish. The partial index actions_assists of the migrations has
// this predicate word for word, so that a game's assisting actions are found
// without reading its log; the triggers of migration 00013 test the same
// list when they mark a game of the statistics undone.
const AssistActions = `action IN ('{"type":"undo"}', '{"type":"finish"}')`

// assistedWin is the SQL condition that the win of game g was assisted (a
// hint given, the live check turned on, or an assisting action in its
// log), for the daily leaderboard; the statistics keep the same condition
// per game (solo_results.helped, migration 00013). Every other win is clean.
const assistedWin = `(g.hints > 0 OR g.checked OR EXISTS (SELECT 1 FROM actions AS x WHERE x.game_id = g.id AND ` + AssistActions + `))`

// SoloStatsQuery is the statistics query of the solo games of player $1, the
// same text in both dialects but for never, the dialect's reset point of a
// player who never reset (minus infinity). It reads the figures the
// migrations' triggers keep as the games are played (migration 00013):
// solo_totals, one row per mode, and solo_results and solo_figures, one row
// each per played game, each found by index seeks, never by reading every
// game. It returns,
// ordered by part, draw, scoring and the fourth column descending:
//
//   - part 0, one row per mode played: draw, scoring, played, won,
//     assisted, best score, fastest win (ms), fewest moves, streak, best
//     streak;
//   - part 1, the latest RecentGames games of each mode, oldest first:
//     draw, scoring, rank from the latest, won, playing, score, play (ms),
//     moves, NULL, NULL.
//
// The scoring is the code's letter (N or V). A game counts while its since
// is the player's reset point. Each unwon game's run_before is the run of
// wins it ended and solo_totals.tail the wins after the last unwon game:
// the current streak is the tail, or the latest game's run while it is
// unwon (not lost yet), and the best streak the largest run or the tail.
func SoloStatsQuery(never string) string {
	since := `(SELECT COALESCE(p.stats_since, ` + never + `) FROM players AS p WHERE p.id = $1)`
	mode := func(x string) string {
		return x + `.player_id = $1 AND ` + x + `.since = ` + since + ` AND ` + x + `.draw = t.draw AND ` + x + `.scoring = t.scoring`
	}
	q := `SELECT 0, t.draw, t.scoring, t.played, t.won, t.assisted,
	(SELECT f.score FROM solo_figures AS f WHERE ` + mode("f") + ` AND f.score IS NOT NULL ORDER BY f.score DESC LIMIT 1),
	(SELECT f.play_ms FROM solo_figures AS f WHERE ` + mode("f") + ` AND f.won = 1 AND f.play_ms IS NOT NULL ORDER BY f.play_ms LIMIT 1),
	(SELECT f.moves FROM solo_figures AS f WHERE ` + mode("f") + ` AND f.won = 1 AND f.moves IS NOT NULL ORDER BY f.moves LIMIT 1),
	COALESCE((SELECT CASE WHEN r.won = 1 THEN t.tail ELSE r.run_before END FROM solo_results AS r
		WHERE ` + mode("r") + ` ORDER BY r.created_at DESC, r.game_id DESC LIMIT 1), 0),
	COALESCE((SELECT r.run_before FROM solo_results AS r
		WHERE ` + mode("r") + ` AND r.won = 0 AND r.run_before > t.tail ORDER BY r.run_before DESC LIMIT 1), t.tail)
FROM solo_totals AS t
WHERE t.player_id = $1 AND t.played > 0`
	for _, m := range SoloModes {
		q += `
UNION ALL
SELECT 1, x.draw, x.scoring, x.back, x.won, CASE WHEN x.back = 1 AND x.won = 0 THEN 1 ELSE 0 END, f.score, f.play_ms, f.moves, NULL, NULL
FROM (
	SELECT y.*, ROW_NUMBER() OVER (ORDER BY y.created_at DESC, y.game_id DESC) AS back
	FROM (
		SELECT r.draw, r.scoring, r.created_at, r.game_id, r.won FROM solo_results AS r
		WHERE r.player_id = $1 AND r.since = ` + since + ` AND r.draw = ` + strconv.Itoa(m.Draw) + ` AND r.scoring = '` + m.letter() + `'
		ORDER BY r.created_at DESC, r.game_id DESC LIMIT ` + strconv.Itoa(RecentGames) + `
	) AS y
) AS x
JOIN solo_figures AS f ON f.game_id = x.game_id`
	}
	return q + `
ORDER BY 1, 2, 3, 4 DESC`
}

// letter is the scoring's letter in a code: N (normal) or V (vegas).
func (m Mode) letter() string {
	if m.Scoring == "vegas" {
		return "V"
	}
	return "N"
}

// RaceStatsQuery is the statistics query of the races of player $1, the
// same text in both dialects: one row of the player's reset point (NULL:
// never reset), rating and deviation, then played, won, lost and drawn of the finished
// races that count, then the same of those against the bot, from the
// player's race_totals, which the triggers of migration 00013 keep (none:
// zeros).
var RaceStatsQuery = `SELECT p.stats_since, COALESCE((SELECT r.rating FROM ratings AS r WHERE r.player_id = p.id), ` +
	strconv.FormatFloat(StartRating().Rating, 'f', -1, 64) + `),
	COALESCE((SELECT r.deviation FROM ratings AS r WHERE r.player_id = p.id), ` +
	strconv.FormatFloat(StartRating().Deviation, 'f', -1, 64) + `),
	COALESCE(t.played, 0), COALESCE(t.won, 0), COALESCE(t.lost, 0), COALESCE(t.drawn, 0),
	COALESCE(t.bot_played, 0), COALESCE(t.bot_won, 0), COALESCE(t.bot_lost, 0), COALESCE(t.bot_drawn, 0)
FROM players AS p LEFT JOIN race_totals AS t ON t.player_id = p.id
WHERE p.id = $1`

// ReadSoloStats reads the rows of SoloStatsQuery into one entry per mode of
// SoloModes (a mode never played has zeros and no recent games).
func ReadSoloStats(rows Rows) ([]SoloStats, error) {
	out := make([]SoloStats, len(SoloModes))
	for i, m := range SoloModes {
		out[i] = SoloStats{Mode: m, Recent: []Recent{}}
	}
	for rows.Next() {
		var part, draw int64
		var letter string
		var n [8]sql.NullInt64
		if err := rows.Scan(&part, &draw, &letter, &n[0], &n[1], &n[2], &n[3], &n[4], &n[5], &n[6], &n[7]); err != nil {
			return nil, err
		}
		m := Mode{Draw: int(draw), Scoring: "normal"}
		if letter == "V" {
			m.Scoring = "vegas"
		}
		i := modeIndex(m)
		if i < 0 {
			return nil, fmt.Errorf("store: stats: no solo mode draw %d scoring %q", draw, letter)
		}
		s := &out[i]
		if part == 0 {
			s.Played, s.Won, s.Assisted = int(n[0].Int64), int(n[1].Int64), int(n[2].Int64)
			s.BestScore, s.FastestWin, s.FewestMoves = intOrNil(n[3]), msOrNil(n[4]), intOrNil(n[5])
			s.Streak, s.BestStreak = int(n[6].Int64), int(n[7].Int64)
			continue
		}
		s.Recent = append(s.Recent, Recent{
			Won: n[1].Int64 == 1, Playing: n[2].Int64 == 1,
			Score: intOrNil(n[3]), Play: msOrNil(n[4]), Moves: intOrNil(n[5]),
		})
	}
	return out, rows.Err()
}

func modeIndex(m Mode) int {
	for i, x := range SoloModes {
		if x == m {
			return i
		}
	}
	return -1
}

func intOrNil(n sql.NullInt64) *int {
	if !n.Valid {
		return nil
	}
	v := int(n.Int64)
	return &v
}

func msOrNil(n sql.NullInt64) *time.Duration {
	if !n.Valid {
		return nil
	}
	d := time.Duration(n.Int64) * time.Millisecond
	return &d
}

// ScanRaceStats reads the row of RaceStatsQuery, the reset point into since
// (the dialect's scan target of a nullable time).
func ScanRaceStats(row Row, since any) (RaceStats, error) {
	var r RaceStats
	err := row.Scan(since, &r.Rating, &r.Deviation, &r.Played, &r.Won, &r.Lost, &r.Drawn, &r.Bot.Played, &r.Bot.Won, &r.Bot.Lost, &r.Bot.Drawn)
	return r, err
}
