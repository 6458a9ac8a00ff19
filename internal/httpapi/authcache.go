package httpapi

import (
	"crypto/sha256"
	"sync"
	"time"

	"dsol/internal/store"
)

// authCache remembers recently seen token hashes for a short time, so that a
// player's burst of requests costs one store lookup. Tokens are never
// revoked; a rename updates the entry here, and another replica's copy is at
// most authTTL old (names only).
type authCache struct {
	mu      sync.Mutex
	entries map[[sha256.Size]byte]authEntry
}

type authEntry struct {
	p     store.Player
	until time.Time
}

const (
	authTTL        = time.Minute
	authCacheLimit = 10000
)

func newAuthCache() *authCache {
	return &authCache{entries: make(map[[sha256.Size]byte]authEntry)}
}

func (c *authCache) get(h []byte, now time.Time) (store.Player, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[[sha256.Size]byte(h)]
	if !ok || now.After(e.until) {
		return store.Player{}, false
	}
	return e.p, true
}

func (c *authCache) put(h []byte, p store.Player, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= authCacheLimit {
		clear(c.entries)
	}
	c.entries[[sha256.Size]byte(h)] = authEntry{p: p, until: now.Add(authTTL)}
}

// rename updates the cached name of a player.
func (c *authCache) rename(h []byte, name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[[sha256.Size]byte(h)]; ok {
		e.p.Name = name
		c.entries[[sha256.Size]byte(h)] = e
	}
}
