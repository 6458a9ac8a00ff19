// Package players is the players service of dsol: accounts and their
// bearer tokens (with a short per-node cache of the tokens seen), names
// and the naming rules they are held to (package names),
// ratings, the transfer codes that sign another device in, blocks,
// statistics and the daily streak, the listing and the export of a
// player's games, and deleting a player's data. The transports call it for
// everything they do with players; it alone reads and writes the store's
// player records for them. What happens in games is the game service's
// (package live).
package players

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"time"

	"dsol/internal/daily"
	"dsol/internal/game"
	"dsol/internal/names"
	"dsol/internal/store"
)

// Player is a player's account as the store keeps it. TokenHash is the
// hash of the token the player was found by (ByToken), nil from Player.
type Player = store.Player

// Stats are a player's statistics as the store counts them, and
// RaceCounts one line of their races.
type (
	Stats      = store.Stats
	RaceCounts = store.RaceCounts
)

// Store is what the players service reads and writes: the accounts, their
// devices, names and statistics, and of the rest what a player reads or
// sets of their own (blocks, games, rating, daily wins).
type Store interface {
	store.Players
	store.Devices
	store.Names
	store.Statistics
	Block(ctx context.Context, playerID, blockedID string, at time.Time) error
	Unblock(ctx context.Context, playerID, blockedID string) error
	Blocks(ctx context.Context, playerID string) ([]store.Block, error)
	ListGames(ctx context.Context, q store.GameQuery) ([]store.Game, error)
	Actions(ctx context.Context, gameID string, afterSeq int64) ([]store.Action, error)
	Rating(ctx context.Context, playerID string) (store.Rating, error)
	DailyWins(ctx context.Context, playerID string) ([]store.DailyWin, error)
}

// Config holds the dependencies of a Service.
type Config struct {
	Store Store
	Clock func() time.Time // default time.Now
	// Random is the source of player ids, tokens and transfer codes
	// (default crypto/rand.Reader).
	Random io.Reader
	// AuthTTL is how long the node's sign-in cache answers for a token
	// without asking the store (default DefaultAuthTTL): the longest a
	// token revoked on another node still signs in here, and an open socket
	// stays open.
	AuthTTL time.Duration
	// Names are the naming rules (default names.New(): the deny-list and
	// names.Reserved).
	Names *names.Checker
}

// Service is the players service.
type Service struct {
	st     Store
	clock  func() time.Time
	random io.Reader
	names  *names.Checker
	auth   *authCache
}

// New returns the players service over cfg.Store.
func New(cfg Config) *Service {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	if cfg.AuthTTL <= 0 {
		cfg.AuthTTL = DefaultAuthTTL
	}
	if cfg.Names == nil {
		cfg.Names = names.New()
	}
	return &Service{st: cfg.Store, clock: cfg.Clock, random: cfg.Random, names: cfg.Names, auth: newAuthCache(cfg.AuthTTL)}
}

// tokenBytes is the length of a bearer token before encoding.
const tokenBytes = 32

// hashToken returns the stored form of a token or a code: its SHA-256.
func hashToken(tok string) []byte {
	h := sha256.Sum256([]byte(tok))
	return h[:]
}

// randomString returns n random bytes from the service's source, base64url.
func (s *Service) randomString(n int) (string, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(s.random, b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// newToken returns a new bearer token (tokenBytes random bytes) and the
// hash that is stored of it.
func (s *Service) newToken() (tok string, hash []byte, err error) {
	tok, err = s.randomString(tokenBytes)
	if err != nil {
		return "", nil, err
	}
	return tok, hashToken(tok), nil
}

// Create creates a player named name ("": "Player " and the first
// characters of their id) and returns it with its first token, shown this
// once: only its hash is stored. A name the naming rules refuse is
// bad_request (CheckName).
func (s *Service) Create(ctx context.Context, name string) (Player, string, error) {
	if name != "" {
		if err := s.CheckName(name); err != nil {
			return Player{}, "", err
		}
	}
	id, err := s.randomString(12)
	if err != nil {
		return Player{}, "", err
	}
	if name == "" {
		name = s.generatedName(id)
	}
	tok, hash, err := s.newToken()
	if err != nil {
		return Player{}, "", err
	}
	p := Player{ID: id, Name: name, TokenHash: hash, CreatedAt: s.clock()}
	if err := s.st.CreatePlayer(ctx, p); err != nil {
		return Player{}, "", err
	}
	return p, tok, nil
}

// ByToken returns the player of a bearer token; an unknown token is
// unauthorized. A token seen lately is answered from the cache (authCache).
func (s *Service) ByToken(ctx context.Context, tok string) (Player, error) {
	p, _, err := s.byHash(ctx, hashToken(tok))
	return p, err
}

// CheckToken reports whether the token whose hash is given (Player.TokenHash)
// still signs its player in, as ByToken would answer, and for how long this
// node answers so from its cache without asking the store again. A socket
// opened with the token checks it again then: a token revoked on another
// node closes it within the cache's lifetime (Config.AuthTTL). A revoked
// token, or a deleted player's, is unauthorized.
func (s *Service) CheckToken(ctx context.Context, hash []byte) (time.Duration, error) {
	_, until, err := s.byHash(ctx, hash)
	if err != nil {
		return 0, err
	}
	return until.Sub(s.clock()), nil
}

// byHash finds the player of a token hash, from the cache while its entry
// holds (until), else from the store, caching what it finds.
func (s *Service) byHash(ctx context.Context, h []byte) (Player, time.Time, error) {
	now := s.clock()
	if p, until, ok := s.auth.get(h, now); ok {
		return p, until, nil
	}
	p, err := s.st.PlayerByTokenHash(ctx, h)
	if errors.Is(err, store.ErrNotFound) {
		return Player{}, time.Time{}, game.Errorf(game.Unauthorized, "unknown token")
	}
	if err != nil {
		return Player{}, time.Time{}, err
	}
	s.auth.put(h, p, now)
	return p, now.Add(s.auth.ttl), nil
}

// Player returns a player's account.
func (s *Service) Player(ctx context.Context, id string) (Player, error) {
	return s.st.Player(ctx, id)
}

// Rename changes a player's name, in the cache too; a name the naming rules
// refuse is bad_request (CheckName). A notice of the server's renaming
// goes: the player chose a name.
func (s *Service) Rename(ctx context.Context, id, name string) error {
	if err := s.CheckName(name); err != nil {
		return err
	}
	if err := s.st.RenamePlayer(ctx, id, name); err != nil {
		return err
	}
	s.auth.rename(id, name)
	return nil
}

// Rating returns a player's race rating (1500 and 350 for a player never
// rated).
func (s *Service) Rating(ctx context.Context, id string) (store.Rating, error) {
	return s.st.Rating(ctx, id)
}

// Logout revokes the token a player signed in with: it stops working on
// this node at once (see authCache for the others). The transport closes
// the sockets opened with it.
func (s *Service) Logout(ctx context.Context, p Player) error {
	if err := s.st.RevokeToken(ctx, p.TokenHash); err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	s.auth.drop(p.TokenHash)
	return nil
}

// LogoutAll revokes every token of a player.
func (s *Service) LogoutAll(ctx context.Context, id string) error {
	if _, err := s.st.RevokeTokens(ctx, id); err != nil {
		return err
	}
	s.auth.forget(id)
	return nil
}

// Delete deletes a player's data (store.Players.DeletePlayer): the player,
// their tokens and transfer code, their solo games and the races nobody
// else played; the other races stay, with the seat shown as a deleted
// player. Resign their races in play first (the game service's ResignAll).
func (s *Service) Delete(ctx context.Context, id string) error {
	if _, err := s.st.DeletePlayer(ctx, id); err != nil {
		return err
	}
	s.auth.forget(id)
	return nil
}

// Stats returns a player's statistics.
func (s *Service) Stats(ctx context.Context, id string) (Stats, error) {
	return s.st.Stats(ctx, id)
}

// ResetStats starts a player's statistics again: only the games started
// from now on count; the race rating stays.
func (s *Service) ResetStats(ctx context.Context, id string) error {
	return s.st.ResetStats(ctx, id, s.clock())
}

// Streak returns a player's daily streak now: the days in a row with a won
// challenge, and the best such run.
func (s *Service) Streak(ctx context.Context, id string) (current, best int, err error) {
	wins, err := s.st.DailyWins(ctx, id)
	if err != nil {
		return 0, 0, err
	}
	ws := make([]daily.Win, len(wins))
	for i, w := range wins {
		ws[i] = daily.Win{Day: w.Day, At: w.At}
	}
	current, best = daily.Streak(ws, s.clock())
	return current, best, nil
}
