// Package store defines the persistence boundary of dsol: players, games and the
// append-only action log that is the source of truth for every game. Adapters
// live in store/sqlite and store/postgres; storetest holds the contract suite
// that both must pass.
package store

import (
	"context"
	"errors"
	"time"

	"dsol/internal/rating"
)

// Errors returned by every Store implementation (wrap-compatible with errors.Is).
var (
	// ErrNotFound means the player or game does not exist.
	ErrNotFound = errors.New("store: not found")
	// ErrConflict means a unique key was violated: an action with the same
	// (game_id, seq) already exists, or a conditional update lost a race. The
	// caller reloads instead of forking a game.
	ErrConflict = errors.New("store: conflict")
	// ErrUnavailable means the database could not be reached; the caller may retry.
	ErrUnavailable = errors.New("store: unavailable")
)

// Player is an account. It has a bearer token for each device it signed in
// on; only their hashes are ever stored.
type Player struct {
	ID   string
	Name string
	// TokenHash is the SHA-256 of a token: for CreatePlayer the player's
	// first token, from PlayerByTokenHash the token it was found by; nil
	// from Player.
	TokenHash []byte
	CreatedAt time.Time
}

// DeletedPlayerID is the player row that stands in the seats of the races
// of players who deleted their data (DeletePlayer), so that their opponents'
// races stay whole. It has no token: nobody can sign in as it.
const DeletedPlayerID = "deleted"

// OwnGames is the SQL condition (player id: parameter 1) of the games that
// DeletePlayer removes with the player: their solo games, the races where
// nobody took the other seat, and the races still waiting (a rematch not
// yet accepted). The races played against someone stay, anonymised.
const OwnGames = `(seat1 = $1 OR seat2 = $1) AND (kind = 'solo' OR status = 'waiting' OR seat2 IS NULL)`

// Renamed is the server's notice to a player that it changed their name
// (CheckNames): the name they had and when it went. It stays until they
// have seen it (ClearRenamed) or chosen a name themselves (RenamePlayer).
type Renamed struct {
	From string
	At   time.Time
}

// Token is one of a player's bearer tokens, by its hash.
type Token struct {
	Hash      []byte // SHA-256 of the token
	CreatedAt time.Time
}

// LinkCode is a player's one-time transfer code, by its hash: redeeming it
// signs another device in as the player, once, until Expires.
type LinkCode struct {
	PlayerID  string
	Hash      []byte // SHA-256 of the code; the code itself is never stored
	Expires   time.Time
	UsedAt    time.Time // zero while unused
	CreatedAt time.Time
}

// Game is the stored header of a solo game or a race. Its state is not stored:
// it is rebuilt by replaying Code + the action log through the engine.
type Game struct {
	ID      string
	Kind    string // "solo" or "race"
	Code    string // canonical DS1-/DR1- code
	Options []byte // JSON of the creation options (race: turns, bonus, series, ...); may be nil
	Status  string // "playing", "won" (solo); "waiting", "playing", "over" (race)
	// Seats holds the player ids: Seats[0] is the owner (solo) or seat 1 (race);
	// Seats[1] is seat 2 of a race, "" while nobody has joined.
	Seats      [2]string
	Public     bool   // listed in the lobby while waiting
	InviteHash []byte // SHA-256 of the secret invite of a race; nil for solo
	SeriesID   string // id shared by the games of one race series ("" for solo)
	SeriesGame int    // 1-based index of the game in its series
	Result     []byte // JSON of the race result once over; nil otherwise
	// Salt is a race's secret salt, fixed at creation (at least 16 random
	// bytes): the race commits to its code with it and shows it once over.
	Salt []byte
	// Hints is how many hints the game has been given (solo); only AddHint
	// changes it.
	Hints int
	// Checked: the live check ("still winnable?") is on for the game
	// (solo); only SetChecked changes it, and nothing clears it.
	Checked   bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// GameQuery selects a player's games for Store.ListGames.
type GameQuery struct {
	Player string
	Status string // only games of this status ("": any)
	Kind   string // only games of this kind ("": any)
	Limit  int    // at most this many (<= 0: no limit)
	// After, when its ID is set, lists only the games that come after it
	// newest first: created before it, or at the same time with a smaller
	// id. It is the last game of the page before, for keyset paging.
	After GameKey
}

// GameKey is where a game stands in the newest-first order of ListGames.
type GameKey struct {
	CreatedAt time.Time
	ID        string
}

// Action is one accepted action of a game's log.
type Action struct {
	GameID   string
	Seq      int64  // 1, 2, 3 ... without gaps within a game
	Seat     int    // 1 or 2 (solo: 1)
	Action   []byte // canonical JSON of the action
	ClientID string // client action id; "" when the client sent none
	At       time.Time
	// Tally is where a solo game stands after the action (nil for a race);
	// it is written with the action and not read back by Actions.
	Tally *Tally
}

// WinnableDeal is a deal of the pool of winnable deals: the solver won the
// solo game DS1-<Mode>-<the letters of Deal> within Budget positions, after
// Positions, searching depth first (Beam 0) or with a beam of width Beam,
// and the solo engine accepted its line as a win.
type WinnableDeal struct {
	Mode      string // D1N, D3N, D1V or D3V
	Deal      uint64 // the deal number, below cards.DealCount
	Budget    int64
	Positions int64
	Beam      int
	FoundAt   time.Time
}

// Rating is a player's Glicko-2 rating (package rating) and the number of
// rated races behind it.
type Rating struct {
	Rating     float64
	Deviation  float64
	Volatility float64
	Races      int
}

// Provisional reports whether the rating is provisional (rating.IsProvisional).
func (r Rating) Provisional() bool {
	return rating.IsProvisional(rating.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility})
}

// StartRating is the rating of a player never rated: 1500, deviation 350,
// volatility 0.06.
func StartRating() Rating {
	r := rating.Start()
	return Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
}

// RaceRating is what was decided about rating a finished race between two
// players, kept so that it can be audited and so that a race is never rated
// twice. Rated races moved both players from Before to After; a race not
// rated keeps After equal to Before and says why in Flag.
type RaceRating struct {
	GameID  string
	Players [2]string // seat 1 and seat 2
	Rated   bool
	// Flag is why the race is not rated ("" when rated): one of the flags
	// of package rating, such as "too_short" or "too_fast".
	Flag string
	// MedianGap is each seat's median time between two of its actions
	// (-1 ms: fewer than two actions), at millisecond precision.
	MedianGap     [2]time.Duration
	Before, After [2]Rating
	At            time.Time
}

// Block is a player's block of another: the two are never paired by quick
// match, see none of each other's races in the lobby and cannot join or
// rematch each other's races.
type Block struct {
	PlayerID  string // who blocked
	BlockedID string // whom
	// BlockedName is the blocked player's name (from Blocks; "" from
	// BlocksAmong).
	BlockedName string
	CreatedAt   time.Time
}

// Store is the whole of a store, every role of roles.go: the SQLite and
// PostgreSQL adapters implement it, and the contract suite (storetest) tests
// it. All methods are safe for concurrent use.
type Store interface {
	Players
	Devices
	Names
	Blocking
	Games
	ActionLog
	Ratings
	Statistics
	Daily
	Winnable
	Retention
	Snapshots
	Arenas
	Health
}

// Snapshot is a live table's saved state of a game at Seq: what the game's
// first Seq actions made of it, so that the table comes back without
// replaying them. Its contents are the table's business (package live).
type Snapshot struct {
	GameID string
	Seq    int64
	State  []byte
	At     time.Time
}

// Lease is a node's ownership of a live game: only its holder runs the
// game's table (engine, bot, clocks), until Expires unless renewed.
type Lease struct {
	Game    string
	Node    string // the holder's node name
	Addr    string // where other nodes reach the holder
	Expires time.Time
}

// Leases is the ownership of live games across the nodes sharing a
// database. A store without it (SQLite, one node by nature) makes its only
// node the owner of every game. Times come from the nodes' clocks, which
// must agree to well within a lease's length.
type Leases interface {
	// Acquire takes or renews the lease of game for node until now+ttl,
	// unless another node holds an unexpired lease: then it returns that
	// lease and false, and records that node asked for the game, so that the
	// holder hands it over (see Renew).
	Acquire(ctx context.Context, game, node, addr string, now time.Time, ttl time.Duration) (Lease, bool, error)
	// Renew extends node's leases of games until now+ttl and returns, of
	// those games, the ones node still holds, each with whether another node
	// has asked for it. A game missing from the answer is no longer node's.
	Renew(ctx context.Context, node string, games []string, now time.Time, ttl time.Duration) (map[string]bool, error)
	// Release gives up node's leases of games; nil games means all of them.
	Release(ctx context.Context, node string, games []string) error
	// LiveLeases lists the leases unexpired at now, by game.
	LiveLeases(ctx context.Context, now time.Time) ([]Lease, error)
}

// Arena is a timed tournament of races (package arena): its settings, and
// how many players joined it (as read; CreateArena ignores Players).
type Arena struct {
	ID        string
	Creator   string // "" once the creator deleted their account
	Minutes   int
	Draw      int
	Single    bool // one pass through the stock ("single" redeal)
	StartsAt  time.Time
	EndsAt    time.Time
	CreatedAt time.Time
	Players   int
}

// ArenaPlayer is a player who joined an arena.
type ArenaPlayer struct {
	ID       string
	Name     string
	Rating   float64 // 0: the player has no rating yet
	JoinedAt time.Time
	Paused   bool
}

// ArenaRace is a race of an arena as its standings read it: its seats,
// status and result (JSON, once over), when it was created and when it
// ended (its header's last change once over; zero before), and when each
// seat made its first action (zero: none yet).
type ArenaRace struct {
	N         int // its number in the arena, in the order races were paired
	GameID    string
	Seats     [2]string
	Status    string
	Result    []byte
	CreatedAt time.Time
	EndedAt   time.Time
	First     [2]time.Time
}
