package store

import (
	"context"
	"time"
)

// The roles of a store: each interface is one part of what the adapters
// keep, and Store is all of them. A consumer declares the methods it calls,
// from these, where it uses them.

// Players are the accounts: a player is created with its first token,
// found by a token's hash or by id, renamed by their own choice, and deleted
// with everything stored about them.
type Players interface {
	// CreatePlayer inserts a new player (ErrConflict if the id or token hash exists).
	CreatePlayer(ctx context.Context, p Player) error
	// PlayerByTokenHash finds the player owning a token hash (ErrNotFound).
	PlayerByTokenHash(ctx context.Context, hash []byte) (Player, error)
	// Player finds a player by id (ErrNotFound).
	Player(ctx context.Context, id string) (Player, error)
	// RenamePlayer changes a player's name, and drops the notice of a
	// renaming by the server: the player chose this name (ErrNotFound).
	RenamePlayer(ctx context.Context, id, name string) error
	// DeletePlayer removes a player and everything stored about them: their
	// tokens and transfer code, their blocks and the blocks of them, their solo games and daily entries, the races nobody else
	// played in (no second player, or the bot) and the races still waiting,
	// with their actions. In the other races (another player's history too)
	// the player's seat passes to DeletedPlayerID, and their ids are
	// returned. ErrNotFound if there is no such player.
	DeletePlayer(ctx context.Context, id string) ([]string, error)
}

// Devices are how a player signs in on their devices: the bearer tokens,
// one a device, and the one-time transfer code that signs another device
// in.
type Devices interface {
	// Tokens lists a player's tokens, oldest first.
	Tokens(ctx context.Context, playerID string) ([]Token, error)
	// RevokeToken removes one token (ErrNotFound if no such token).
	RevokeToken(ctx context.Context, hash []byte) error
	// RevokeTokens removes every token of a player and returns how many.
	RevokeTokens(ctx context.Context, playerID string) (int, error)
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
}

// Names hold the stored player names to the naming rules: the check of
// every name, and the notice to a player the server renamed.
type Names interface {
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
}

// Blocking is the players' blocks of one another.
type Blocking interface {
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
}

// Games are the stored game headers: solo games and races, their seats
// and status, the lobby's open races and a player's list of games.
type Games interface {
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
	// ListGames lists the games where q.Player holds a seat, newest first
	// (by creation time, then id), as q selects.
	ListGames(ctx context.Context, q GameQuery) ([]Game, error)
	// OpenRaces lists public races still waiting for a second player, oldest first.
	OpenRaces(ctx context.Context, limit int) ([]Game, error)
}

// ActionLog is the append-only log of each game's accepted actions, the
// source of truth of its state.
type ActionLog interface {
	// AppendActions writes actions of one or many games in one transaction: all or
	// nothing. A duplicate (game_id, seq) makes the whole call fail with
	// ErrConflict. Client ids are stored as given: their duplicates are the
	// table's to refuse, from the game's log.
	AppendActions(ctx context.Context, actions []Action) error
	// Actions returns the actions of a game with seq > afterSeq, in seq order.
	Actions(ctx context.Context, gameID string, afterSeq int64) ([]Action, error)
}

// Ratings are the players' race ratings and the decision kept for each
// finished race.
type Ratings interface {
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
}

// Statistics are a player's statistics and their reset point.
type Statistics interface {
	// Stats returns the statistics of a player: what the stored games and
	// actions give, read from the figures the migrations' triggers keep as
	// they are written (ErrNotFound for no such player).
	Stats(ctx context.Context, playerID string) (Stats, error)
	// ResetStats sets the player's reset point to at: from then on Stats
	// counts only the games started after it, but for the race rating,
	// which is never reset (ErrNotFound for no such player).
	ResetStats(ctx context.Context, playerID string, at time.Time) error
}

// Daily is the daily challenge: each day's deals, the players' entries,
// the leaderboard and each player's wins.
type Daily interface {
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
}

// Winnable is the pool of winnable deals, and which of them a player has
// played.
type Winnable interface {
	// AddWinnable adds deals to the pool of winnable deals, leaving those
	// it holds already (the same mode and deal) as they are, and returns
	// how many it added.
	AddWinnable(ctx context.Context, deals []WinnableDeal) (int, error)
	// WinnableDeals lists the pool of winnable deals, oldest first.
	WinnableDeals(ctx context.Context) ([]WinnableDeal, error)
	// PlayedCodes returns those of codes (canonical solo codes) of which
	// playerID has a solo game, in any order.
	PlayedCodes(ctx context.Context, playerID string, codes []string) ([]string, error)
}

// Retention is the housekeeping of the games left unfinished.
type Retention interface {
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
}

// Health is the store's hold on its database: whether it answers, and
// letting it go.
type Health interface {
	// Ping checks that the database answers (for /readyz).
	Ping(ctx context.Context) error
	// Close releases the connections.
	Close() error
}

// Snapshots keep, for each game, the newest snapshot of its live table:
// derived from the action log, never the source of truth; deleted with the
// game.
type Snapshots interface {
	// PutSnapshots stores each snapshot as its game's, in one transaction,
	// unless the game has one of a later seq already or no longer exists
	// (deleted meanwhile: nothing to keep). At most one a game.
	PutSnapshots(ctx context.Context, s []Snapshot) error
	// Snapshot returns a game's snapshot (ErrNotFound if it has none).
	Snapshot(ctx context.Context, gameID string) (Snapshot, error)
}

// Arenas keep the timed tournaments of races: each arena's settings, who
// joined it and who is paused, and which races are its. Its standings are
// never stored: they follow from its races (package arena).
type Arenas interface {
	// CreateArena inserts an arena (ErrConflict if the id exists).
	CreateArena(ctx context.Context, a Arena) error
	// Arena loads an arena with its count of players (ErrNotFound).
	Arena(ctx context.Context, id string) (Arena, error)
	// ListArenas lists the arenas that end after now (upcoming and running)
	// or ended at most since before, soonest start first, at most limit.
	ListArenas(ctx context.Context, now time.Time, since time.Duration, limit int) ([]Arena, error)
	// ArenasCreated counts the arenas player created at or after since.
	ArenasCreated(ctx context.Context, player string, since time.Time) (int, error)
	// JoinArena records that player joined arena at at, or came back to
	// it: a player already in it keeps their first join and is no longer
	// paused. ErrNotFound if the arena or the player does not exist.
	JoinArena(ctx context.Context, arena, player string, at time.Time) error
	// PauseArena pauses (or, with paused false, resumes) a player of an
	// arena (ErrNotFound if they did not join it).
	PauseArena(ctx context.Context, arena, player string, paused bool) error
	// ArenaPlayers lists an arena's players in the order they joined, with
	// their names and ratings.
	ArenaPlayers(ctx context.Context, arena string) ([]ArenaPlayer, error)
	// CreateArenaRace inserts a race (as CreateGame does) and makes it
	// arena's race number n, in one transaction (ErrConflict if the arena
	// has a race n).
	CreateArenaRace(ctx context.Context, arena string, n int, g Game) error
	// ArenaRaces lists an arena's races by number, or, with game set, only
	// that race of it (none if it is not the arena's).
	ArenaRaces(ctx context.Context, arena, game string) ([]ArenaRace, error)
}
