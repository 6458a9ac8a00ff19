package players

import (
	"crypto/sha256"
	"sync"
	"time"

	"dsol/internal/store"
)

// authCache remembers recently seen token hashes for a short time (its
// lifetime, Config.AuthTTL: a minute by default), so that a player's burst
// of requests costs one store lookup. It is per node: a rename updates the
// player's entries here, and signing out (one token, every token, or
// deleting the player) drops them here, so a revoked token fails at once on
// this node; another node's copy is at most the lifetime old, so there a
// revoked token may still work for up to that long. An open socket checks
// its token again when this node's entry for it runs out (CheckToken), so
// that on another node it closes within the lifetime too.
type authCache struct {
	mu      sync.Mutex
	ttl     time.Duration
	entries map[[sha256.Size]byte]authEntry
}

type authEntry struct {
	p     store.Player
	until time.Time
}

const (
	// DefaultAuthTTL is the lifetime of the sign-in cache's entries.
	DefaultAuthTTL = time.Minute
	authCacheLimit = 10000
)

func newAuthCache(ttl time.Duration) *authCache {
	return &authCache{ttl: ttl, entries: make(map[[sha256.Size]byte]authEntry)}
}

// get returns the cached player of a token hash and until when the entry
// holds; false when there is none, or it ran out.
func (c *authCache) get(h []byte, now time.Time) (store.Player, time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[[sha256.Size]byte(h)]
	if !ok || !now.Before(e.until) {
		return store.Player{}, time.Time{}, false
	}
	return e.p, e.until, true
}

func (c *authCache) put(h []byte, p store.Player, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= authCacheLimit {
		clear(c.entries)
	}
	c.entries[[sha256.Size]byte(h)] = authEntry{p: p, until: now.Add(c.ttl)}
}

// rename updates the cached name of a player, under each of their tokens.
func (c *authCache) rename(playerID, name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for h, e := range c.entries {
		if e.p.ID == playerID {
			e.p.Name = name
			c.entries[h] = e
		}
	}
}

// clear forgets every token.
func (c *authCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.entries)
}

// drop forgets one token.
func (c *authCache) drop(h []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, [sha256.Size]byte(h))
}

// forget forgets every token of a player.
func (c *authCache) forget(playerID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for h, e := range c.entries {
		if e.p.ID == playerID {
			delete(c.entries, h)
		}
	}
}
