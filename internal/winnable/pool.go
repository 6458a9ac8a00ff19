package winnable

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"dsol/internal/cards"
	"dsol/internal/store"
)

// ErrEmpty means the pool holds no deal of the mode asked for.
var ErrEmpty = errors.New("winnable: no winnable deal of this mode yet")

// pickTries is how many deals Pick draws to find one the player has not
// played: one query for all of them; a player who has played a good share of
// a small pool may still get a deal again.
const pickTries = 16

// Pool is the set of winnable deals a server deals from, by mode: the
// shipped lists and the deals of the stored pool. Deals are only ever added.
// It is safe for concurrent use. The zero Pool is empty.
type Pool struct {
	mu     sync.RWMutex
	deals  [4][]uint64 // append only, so a copy of a slice stays valid
	known  [4]map[uint64]bool
	listed [4]int // how many of deals come from the shipped list
	onSize func(m Mode, listed, stored int)
}

// NewPool returns a pool holding the shipped lists. onSize, when not nil,
// hears the number of deals of each mode, from the list and from the stored
// pool, now and after every change.
func NewPool(onSize func(m Mode, listed, stored int)) *Pool {
	p := &Pool{}
	for _, m := range Modes {
		for _, l := range Shipped(m) {
			p.Add(l.Deals...)
		}
	}
	for _, m := range Modes {
		p.listed[m] = len(p.deals[m])
	}
	p.onSize = onSize
	for _, m := range Modes {
		p.report(m)
	}
	return p
}

func (p *Pool) report(m Mode) {
	if p.onSize != nil {
		p.onSize(m, p.listed[m], len(p.deals[m])-p.listed[m])
	}
}

// Add adds deals, each also to the modes that carry its mode's deals (see
// carries: a draw-3 Vegas deal is a draw-1 Vegas deal too), and returns how
// many the pool did not hold yet, in each mode.
func (p *Pool) Add(ds ...Deal) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	added := 0
	var changed [4]bool
	add := func(m Mode, n uint64) {
		if p.known[m][n] {
			return
		}
		if p.known[m] == nil {
			p.known[m] = map[uint64]bool{}
		}
		p.known[m][n] = true
		p.deals[m] = append(p.deals[m], n)
		changed[m] = true
		added++
	}
	for _, d := range ds {
		if int(d.Mode) >= len(Modes) {
			continue
		}
		add(d.Mode, d.Number)
		for to, from := range carries {
			if from == d.Mode {
				add(to, d.Number)
			}
		}
	}
	for _, m := range Modes {
		if changed[m] {
			p.report(m)
		}
	}
	return added
}

// Has reports whether the pool holds a deal.
func (p *Pool) Has(m Mode, deal uint64) bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.known[m][deal]
}

// Size returns how many deals of a mode the pool holds.
func (p *Pool) Size(m Mode) int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return len(p.deals[m])
}

// Played tells which of some codes a player has played (store.Winnable's
// PlayedCodes).
type Played interface {
	PlayedCodes(ctx context.Context, playerID string, codes []string) ([]string, error)
}

// Pick returns the code of a winnable deal of mode m for a player, at
// random, avoiding the deals the player has played: it draws up to
// pickTries deals (every deal, in a random order, when the pool holds no
// more) and takes the first of them the player has no game of, or the
// first drawn when the player has played them all. ErrEmpty when the pool
// holds no deal of m.
func (p *Pool) Pick(ctx context.Context, m Mode, played Played, player string, random io.Reader) (cards.Code, error) {
	p.mu.RLock()
	deals := p.deals[m]
	p.mu.RUnlock()
	n := uint64(len(deals))
	if n == 0 {
		return cards.Code{}, ErrEmpty
	}
	var drawn []uint64
	if n <= pickTries {
		drawn = append(drawn, deals...)
		for i := n - 1; i > 0; i-- { // Fisher–Yates
			j, err := uniform(random, i+1)
			if err != nil {
				return cards.Code{}, err
			}
			drawn[i], drawn[j] = drawn[j], drawn[i]
		}
	} else {
		seen := map[uint64]bool{}
		for len(drawn) < pickTries {
			i, err := uniform(random, n)
			if err != nil {
				return cards.Code{}, err
			}
			if !seen[i] {
				seen[i] = true
				drawn = append(drawn, deals[i])
			}
		}
	}
	codes := make([]string, len(drawn))
	for i, d := range drawn {
		codes[i] = m.Code(d).String()
	}
	had, err := played.PlayedCodes(ctx, player, codes)
	if err != nil {
		return cards.Code{}, err
	}
	old := make(map[string]bool, len(had))
	for _, c := range had {
		old[c] = true
	}
	for i, c := range codes {
		if !old[c] {
			return m.Code(drawn[i]), nil
		}
	}
	return m.Code(drawn[0]), nil
}

// uniform returns a number below n drawn uniformly from the bytes of r.
func uniform(r io.Reader, n uint64) (uint64, error) {
	limit := -((-n) % n) // the largest multiple of n that fits, wrapped: 0 when n divides 2^64
	var b [8]byte
	for {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return 0, fmt.Errorf("winnable: random source: %w", err)
		}
		v := binary.LittleEndian.Uint64(b[:])
		if limit == 0 || v < limit {
			return v % n, nil
		}
	}
}

// fromStore reads a deal of the stored pool.
func fromStore(d store.WinnableDeal) (Deal, error) {
	m, err := ParseMode(d.Mode)
	if err != nil {
		return Deal{}, err
	}
	if d.Deal >= cards.DealCount {
		return Deal{}, fmt.Errorf("winnable: stored deal %d of %s is out of range", d.Deal, d.Mode)
	}
	return Deal{Mode: m, Number: d.Deal, Budget: d.Budget, Positions: d.Positions, Beam: d.Beam}, nil
}

// toStore is a deal as the stored pool keeps it.
func toStore(d Deal, at time.Time) store.WinnableDeal {
	return store.WinnableDeal{Mode: d.Mode.String(), Deal: d.Number, Budget: d.Budget, Positions: d.Positions, Beam: d.Beam, FoundAt: at}
}
