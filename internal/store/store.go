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
// Positions, and the solo engine accepted its line as a win.
type WinnableDeal struct {
	Mode      string // D1N, D3N, D1V or D3V
	Deal      uint64 // the deal number, below cards.DealCount
	Budget    int64
	Positions int64
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

// Store is implemented by the SQLite and PostgreSQL adapters. All methods are
// safe for concurrent use.
type Store interface {
	// CreatePlayer inserts a new player (ErrConflict if the id or token hash exists).
	CreatePlayer(ctx context.Context, p Player) error
	// PlayerByTokenHash finds the player owning a token hash (ErrNotFound).
	PlayerByTokenHash(ctx context.Context, hash []byte) (Player, error)
	// Player finds a player by id (ErrNotFound).
	Player(ctx context.Context, id string) (Player, error)
	// RenamePlayer changes a player's name, and drops the notice of a
	// renaming by the server: the player chose this name (ErrNotFound).
	RenamePlayer(ctx context.Context, id, name string) error
	// CheckNames passes the players whose names were not found good under
	// rules (the fingerprint of the naming rules) since they last changed
	// to check, in id order, at most batch in each transaction (batch <= 0:
	// 500). check returns "" to keep the name, which marks it good under
	// rules, or the name to give instead: it is stored, marked good, with
	// the notice Renamed{From: the name before, At: at}, which replaces any
	// notice before. Both are conditional on the name still being the one
	// checked: a name changed meanwhile is left, for the next call. A name
	// changed by RenamePlayer, or stored by CreatePlayer, by any release,
	// is not marked: the mark holds the name it was made for. check must be
	// pure (it may be called again for the same player when a transaction
	// is retried). It returns how many players were renamed. On PostgreSQL
	// one caller checks a schema at a time: a call made while another's
	// transaction is under way returns at once, with what it renamed until
	// then.
	CheckNames(ctx context.Context, rules string, at time.Time, batch int, check func(id, name string) string) (int, error)
	// Renamed returns a player's notice of the server's last renaming of
	// them (ErrNotFound: none, or no such player).
	Renamed(ctx context.Context, id string) (Renamed, error)
	// ClearRenamed drops a player's notice of a renaming (none: nothing to
	// do; ErrNotFound for no such player).
	ClearRenamed(ctx context.Context, id string) error
	// Tokens lists a player's tokens, oldest first.
	Tokens(ctx context.Context, playerID string) ([]Token, error)
	// RevokeToken removes one token (ErrNotFound if no such token).
	RevokeToken(ctx context.Context, hash []byte) error
	// RevokeTokens removes every token of a player and returns how many.
	RevokeTokens(ctx context.Context, playerID string) (int, error)
	// DeletePlayer removes a player and everything stored about them: their
	// tokens and transfer code, their blocks and the blocks of them, their solo games and daily entries, the races nobody else
	// played in (no second player, or the bot) and the races still waiting,
	// with their actions. In the other races (another player's history too)
	// the player's seat passes to DeletedPlayerID, and their ids are
	// returned. ErrNotFound if there is no such player.
	DeletePlayer(ctx context.Context, id string) ([]string, error)

	// Block records that playerID blocked blockedID at at; a block already
	// there keeps its time. ErrNotFound if either player does not exist.
	Block(ctx context.Context, playerID, blockedID string, at time.Time) error
	// Unblock removes playerID's block of blockedID (none: nothing to do).
	Unblock(ctx context.Context, playerID, blockedID string) error
	// Blocks lists the players playerID blocked, oldest block first, with
	// their names.
	Blocks(ctx context.Context, playerID string) ([]Block, error)
	// BlocksAmong returns the blocks made by or against any of ids, in any
	// order, without names.
	BlocksAmong(ctx context.Context, ids []string) ([]Block, error)

	// PutLinkCode stores the transfer code of c.PlayerID, replacing the one
	// they had (ErrNotFound if there is no such player, ErrConflict if
	// another player's code has the same hash).
	PutLinkCode(ctx context.Context, c LinkCode) error
	// LinkCode returns a player's transfer code (ErrNotFound if none).
	LinkCode(ctx context.Context, playerID string) (LinkCode, error)
	// RedeemLinkCode uses the transfer code of hash at now and gives its
	// player the token tokenHash, in one transaction, and returns the code.
	// A code used before or expired at now is left as it is and returned
	// with ErrConflict; ErrNotFound if no code has that hash.
	RedeemLinkCode(ctx context.Context, hash, tokenHash []byte, now time.Time) (LinkCode, error)

	// CreateGame inserts a new game header (ErrConflict if the id exists).
	CreateGame(ctx context.Context, g Game) error
	// Game loads a game header (ErrNotFound).
	Game(ctx context.Context, id string) (Game, error)
	// UpdateGame stores Status, Seats, Public, Result and UpdatedAt of an existing
	// game (ErrNotFound).
	UpdateGame(ctx context.Context, g Game) error
	// AddHint counts one more hint given in a game and returns the new
	// count (ErrNotFound). Nothing else of the header changes.
	AddHint(ctx context.Context, gameID string) (int, error)
	// SetChecked records that the live check is on for a game (ErrNotFound);
	// setting it again is no error. Nothing else of the header changes.
	SetChecked(ctx context.Context, gameID string) error
	// JoinGame sets seat 2 of a waiting race to playerID and its status to
	// "playing", only if seat 2 is still empty (ErrConflict otherwise).
	JoinGame(ctx context.Context, gameID, playerID string, at time.Time) error
	// CancelRace ends a race that is still waiting for a second player: its
	// status becomes "over" (with no result) and it leaves the lobby, only if
	// playerID holds seat 1 and seat 2 is still empty (ErrConflict otherwise;
	// ErrNotFound for no such game).
	CancelRace(ctx context.Context, gameID, playerID string, at time.Time) error
	// FinishRace stores the end of a race as UpdateGame does and, in the
	// same transaction, decides its rating: decide gets both seats' current
	// ratings and how many races between the same two players were rated
	// in the rating.PairWindow before g.UpdatedAt (the race's end), and
	// returns the decision to keep, or nil for none (nothing is recorded).
	// A rated decision's After becomes both players' ratings, each with one
	// more rated race. A race that has a decision already keeps it: decide
	// is not called and nobody is rated again. decide must be pure (it may
	// be called again when the transaction is retried); a nil decide makes
	// FinishRace an UpdateGame. ErrNotFound for no such game.
	FinishRace(ctx context.Context, g Game, decide func(current [2]Rating, pairRated int) *RaceRating) error
	// RaceRating returns the rating decision of a race (ErrNotFound: none).
	RaceRating(ctx context.Context, gameID string) (RaceRating, error)
	// Rating returns a player's current rating; StartRating() for a player
	// never rated (or unknown).
	Rating(ctx context.Context, playerID string) (Rating, error)
	// ListGames lists the games where q.Player holds a seat, newest first
	// (by creation time, then id), as q selects.
	ListGames(ctx context.Context, q GameQuery) ([]Game, error)
	// OpenRaces lists public races still waiting for a second player, oldest first.
	OpenRaces(ctx context.Context, limit int) ([]Game, error)

	// AppendActions writes actions of one or many games in one transaction: all or
	// nothing. A duplicate (game_id, seq) makes the whole call fail with
	// ErrConflict. Client ids are stored as given: their duplicates are the
	// table's to refuse, from the game's log.
	AppendActions(ctx context.Context, actions []Action) error
	// Actions returns the actions of a game with seq > afterSeq, in seq order.
	Actions(ctx context.Context, gameID string, afterSeq int64) ([]Action, error)

	// Stats returns the statistics of a player: what the stored games and
	// actions give, read from the figures the migrations' triggers keep as
	// they are written (ErrNotFound for no such player).
	Stats(ctx context.Context, playerID string) (Stats, error)
	// ResetStats sets the player's reset point to at: from then on Stats
	// counts only the games started after it, but for the race rating,
	// which is never reset (ErrNotFound for no such player).
	ResetStats(ctx context.Context, playerID string, at time.Time) error

	// DeleteAbandoned deletes, with their actions, at most limit games (no
	// limit when limit <= 0) that were left unfinished: solo games still
	// "playing" and races still "waiting" for a second player whose last
	// activity, the later of UpdatedAt and the time of their last action, is
	// before before. Finished games (won, over) and races in play are never
	// deleted; a daily game deleted takes its entry with it. It returns how
	// many games it deleted: call it again while that
	// equals limit. On PostgreSQL one caller sweeps at a time: a call made
	// while another one is under way on the same schema deletes nothing and
	// returns 0.
	DeleteAbandoned(ctx context.Context, before time.Time, limit int) (int, error)

	// AddWinnable adds deals to the pool of winnable deals, leaving those
	// it holds already (the same mode and deal) as they are, and returns
	// how many it added.
	AddWinnable(ctx context.Context, deals []WinnableDeal) (int, error)
	// WinnableDeals lists the pool of winnable deals, oldest first.
	WinnableDeals(ctx context.Context) ([]WinnableDeal, error)
	// PlayedCodes returns those of codes (canonical solo codes) of which
	// playerID has a solo game, in any order.
	PlayedCodes(ctx context.Context, playerID string, codes []string) ([]string, error)

	// PutDailyChallenge stores c unless a challenge of its day and mode is
	// stored already (two nodes may race to make it), and returns the one
	// stored: insert or keep, then read back.
	PutDailyChallenge(ctx context.Context, c DailyChallenge) (DailyChallenge, error)
	// DailyChallenges lists the challenges of a day, by mode (none: empty).
	DailyChallenges(ctx context.Context, day string) ([]DailyChallenge, error)
	// StartDaily creates the game g and the entry e of its player in one
	// transaction, unless the player has an entry of e's challenge already:
	// then nothing is created and the stored entry is returned, with false.
	// ErrNotFound if the challenge or the player does not exist.
	StartDaily(ctx context.Context, g Game, e DailyEntry) (DailyEntry, bool, error)
	// Leaderboard returns the leaderboard of a daily challenge, in one query
	// (LeaderboardSQL).
	Leaderboard(ctx context.Context, q LeaderboardQuery) (Leaderboard, error)
	// FinishDaily stores the win of a daily challenge's game as UpdateGame
	// does and, in the same transaction, its entry's median gap between
	// two actions (at millisecond precision; negative: fewer than two
	// actions), which decides whether the win ranks (ErrNotFound: no such
	// game).
	FinishDaily(ctx context.Context, g Game, gap time.Duration) error
	// DailyWins lists a player's wins of daily challenges (any mode),
	// oldest day first, each with when its winning action was stored.
	DailyWins(ctx context.Context, playerID string) ([]DailyWin, error)

	// Ping checks that the database answers (for /readyz).
	Ping(ctx context.Context) error
	// Close releases the connections.
	Close() error
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
