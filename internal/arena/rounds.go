package arena

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"dsol/internal/rating"
	"dsol/internal/store"
)

// run is the arena's goroutine: every PairEvery, and whenever a race ends
// or a player joins or connects, it scores what ended, pauses idle seats,
// pushes the standings (at most every PushEvery), and starts a round of
// pairing (on a goroutine of its own, one round at a time, so that the
// store writes of a round's races never hold a push back) or ends the races
// that outlived the arena.
func (x *Arena) run() {
	defer close(x.done)
	cfg := &x.reg.cfg
	tick := time.NewTicker(cfg.PairEvery)
	defer tick.Stop()
	var later <-chan time.Time // the next push that waits for PushEvery
	defer x.rounds.Wait()
	x.rounds.Add(1)
	go x.poll()
	for {
		select {
		case <-x.stop:
			return
		case <-tick.C:
		case <-x.kick:
		case <-later:
			later = nil
		}
		ctx, cancel := context.WithTimeout(context.Background(), cfg.StoreTimeout)
		x.settle(ctx)
		wait := x.push()
		x.advance(ctx)
		cancel()
		if wait > 0 && later == nil {
			later = time.After(wait)
		}
	}
}

// poke wakes the arena's goroutine.
func (x *Arena) poke() {
	select {
	case x.kick <- struct{}{}:
	default:
	}
}

// settle reads the races that ended and the idle seats of those past
// IdleWithin, and notes the arena's start and end.
func (x *Arena) settle(ctx context.Context) {
	cfg := &x.reg.cfg
	now := cfg.Clock()
	x.mu.Lock()
	ended := x.ended
	x.ended = nil
	var idle []string
	for id, r := range x.races {
		if !r.idleCheck && now.Sub(r.created) >= IdleWithin {
			idle = append(idle, id)
		}
	}
	if status := StatusAt(x.a, now); status != x.status { // it started or ended: everyone is told
		x.status, x.dirty = status, true
	}
	x.mu.Unlock()
	x.readRaces(ctx, uniq(ended), false)
	x.readRaces(ctx, idle, true)
}

// readRaces reads races with readRace, ReadWorkers at once.
func (x *Arena) readRaces(ctx context.Context, ids []string, idleCheck bool) {
	sem := make(chan struct{}, ReadWorkers)
	var wg sync.WaitGroup
	for _, id := range ids {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			x.readRace(ctx, id, idleCheck)
		}()
	}
	wg.Wait()
}

// ReadWorkers is how many of an arena's races are read from the store at
// once.
const ReadWorkers = 8

// poll looks up, every PollEvery, the arena's races in play in the store,
// and tells the arena of those over (the races whose end another node
// stored), off the arena's goroutine.
func (x *Arena) poll() {
	defer x.rounds.Done()
	cfg := &x.reg.cfg
	t := time.NewTicker(cfg.PollEvery)
	defer t.Stop()
	for {
		select {
		case <-x.ctx.Done():
			return
		case <-t.C:
		}
		now := cfg.Clock()
		x.mu.Lock()
		var ids []string
		for id, r := range x.races {
			if now.Sub(r.polled) >= cfg.PollEvery {
				ids = append(ids, id)
			}
		}
		x.mu.Unlock()
		if cfg.Local != nil {
			ids = slices.DeleteFunc(ids, func(id string) bool {
				x.mu.Lock()
				defer x.mu.Unlock()
				r := x.races[id]
				return r == nil || now.Sub(r.polled) < LocalPollEvery && cfg.Local(id)
			})
		}
		x.mu.Lock()
		for _, id := range ids {
			if r := x.races[id]; r != nil {
				r.polled = now
			}
		}
		x.mu.Unlock()
		for _, id := range ids {
			ctx, cancel := context.WithTimeout(x.ctx, cfg.StoreTimeout)
			g, err := cfg.Store.Game(ctx, id)
			cancel()
			if err == nil && g.Status == "over" {
				x.raceOver(id)
			}
		}
	}
}

// advance pairs the free players while the arena runs (a round on its own
// goroutine unless one is under way), and once it is over by EndGrace ends
// the races still in play.
func (x *Arena) advance(ctx context.Context) {
	cfg := &x.reg.cfg
	now := cfg.Clock()
	switch StatusAt(x.arena(), now) {
	case Running:
		x.mu.Lock()
		busy := x.pairing
		x.pairing = true
		x.mu.Unlock()
		if busy {
			return
		}
		x.rounds.Add(1)
		go func() {
			defer x.rounds.Done()
			ctx, cancel := context.WithTimeout(x.ctx, cfg.StoreTimeout)
			defer cancel()
			made := x.pair(ctx, now)
			x.mu.Lock()
			x.pairing = false
			x.mu.Unlock()
			if made > 0 {
				x.poke() // push the players now playing
			}
		}()
	case Over:
		if now.Sub(x.arena().EndsAt) >= cfg.EndGrace {
			x.timeUp(ctx)
		}
	}
}

func uniq(ids []string) []string {
	slices.Sort(ids)
	return slices.Compact(ids)
}

// arena returns the arena's settings.
func (x *Arena) arena() store.Arena {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.a
}

// readRace reads a race of the arena from the store: once over, it is
// scored; past IdleWithin (idleCheck), a seat that has not acted pauses its
// player.
func (x *Arena) readRace(ctx context.Context, id string, idleCheck bool) {
	cfg := &x.reg.cfg
	rs, err := cfg.Store.ArenaRaces(ctx, x.id, id)
	if err != nil || len(rs) == 0 {
		if err != nil {
			cfg.Logger.Warn("arena: read a race", "arena", x.id, "race", id, "err", err)
		}
		return
	}
	r := RaceOf(rs[0])
	now := cfg.Clock()
	x.mu.Lock()
	live := x.races[id]
	if live == nil {
		x.mu.Unlock()
		return // scored already
	}
	live.created = r.Created // as stored: the idle rule counts from it
	var idle []string
	// The idle seats are known once the race is over or IdleWithin old.
	if decided := r.Over || now.Sub(r.Created) >= IdleWithin; decided && !live.idleCheck {
		live.idleCheck = true
		for i, p := range r.Seats {
			if m := x.members[p]; r.Idle[i] && m != nil && !m.paused {
				idle = append(idle, p)
			}
		}
	}
	if r.Over {
		delete(x.races, id)
		row := x.row(r)
		x.scoreRace(r, row)
		for i, p := range r.Seats {
			m := x.members[p]
			if m == nil {
				continue
			}
			m.race, m.last, m.freeSince = "", r.Seats[1-i], now
			points, score := row.Points[i], m.tally.Score
			x.send(p, encode(Message{Type: "scored", Race: id, Points: &points, Score: &score}))
		}
		x.dirty = true
	}
	x.mu.Unlock()
	for _, p := range idle {
		x.pauseIdle(ctx, p)
	}
}

// pauseIdle pauses a player whose seat stayed idle: stored first, then
// told.
func (x *Arena) pauseIdle(ctx context.Context, p string) {
	if err := x.reg.cfg.Store.PauseArena(ctx, x.id, p, true); err != nil {
		x.reg.cfg.Logger.Warn("arena: pause an idle player", "arena", x.id, "err", err)
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if m := x.members[p]; m != nil {
		m.paused, m.idle = true, true
		x.send(p, encode(Message{Type: "paused", Reason: "idle"}))
		x.dirty = true
	}
}

// pair pairs the free players: joined, not paused, with a socket open, not
// in a race.
func (x *Arena) pair(ctx context.Context, now time.Time) int64 {
	cfg := &x.reg.cfg
	x.mu.Lock()
	var free []Free
	for _, m := range x.members {
		if !m.paused && m.race == "" && x.present[m.id] > 0 && !now.Before(m.busyUntil) {
			rt := m.rating
			if rt == 0 { // no rating yet: where everyone starts
				rt = rating.StartRating
			}
			free = append(free, Free{ID: m.id, Score: m.tally.Score, Rating: rt, Last: m.last, Odd: m.odd, Joined: m.joined, Avoid: m.avoid})
		}
	}
	a := x.a
	x.mu.Unlock()
	if len(free) < 2 {
		return 0
	}
	pairs, left := Pair(free)
	sem := make(chan struct{}, PairWorkers)
	var wg sync.WaitGroup
	var made atomic.Int64
	for _, p := range pairs {
		if rematch(p[0], p[1]) && x.waited(p, now) < RematchWait {
			continue // someone else may come free meanwhile
		}
		x.mu.Lock()
		if x.stopped { // it moved to another node meanwhile
			x.mu.Unlock()
			break
		}
		n := x.nextN
		x.nextN++
		x.mu.Unlock()
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			id, err := cfg.Pair(ctx, a, n, p[0].ID, p[1].ID)
			if x.paired(p, id, err) {
				made.Add(1)
			}
		}()
	}
	wg.Wait()
	x.mu.Lock()
	for _, l := range left {
		if m := x.members[l.ID]; m != nil {
			m.odd = true
		}
	}
	x.mu.Unlock()
	return made.Load()
}

// PairWorkers is how many races of a round of pairing are created at once.
const PairWorkers = 8

// paired seats a pair in the race Config.Pair made for them (id) and
// reports true, or, when it failed, passes a player with a race in play
// elsewhere over for BusyWait.
func (x *Arena) paired(p [2]Free, id string, err error) bool {
	cfg := &x.reg.cfg
	now := cfg.Clock()
	x.mu.Lock()
	defer x.mu.Unlock()
	if err != nil {
		var busy *BusyError
		var bl *BlockedError
		switch {
		case errors.As(err, &busy):
			if m := x.members[busy.Player]; m != nil {
				m.busyUntil = now.Add(BusyWait)
			}
		case errors.As(err, &bl):
			for i, id := range bl.Players {
				if m := x.members[id]; m != nil {
					m.avoid = append(m.avoid, bl.Players[1-i])
				}
			}
		default:
			cfg.Logger.Warn("arena: pair", "arena", x.id, "err", err)
		}
		return false
	}
	x.races[id] = &racing{seats: [2]string{p[0].ID, p[1].ID}, created: now, polled: now}
	x.row(Race{ID: id, Seats: [2]string{p[0].ID, p[1].ID}, Created: now})
	for _, f := range p {
		m := x.members[f.ID]
		m.race, m.odd = id, false
		if cfg.Paired != nil {
			cfg.Paired(now.Sub(m.freeSince))
		}
		x.send(f.ID, encode(Message{Type: "paired", Race: id}))
	}
	x.dirty = true
	return true
}

// RematchWait is how long two players who just played each other wait for
// another opponent to come free before they are paired again.
const RematchWait = 10 * time.Second

// waited is how long the shorter waiting of a pair has been free.
func (x *Arena) waited(p [2]Free, now time.Time) time.Duration {
	x.mu.Lock()
	defer x.mu.Unlock()
	var since time.Time
	for _, f := range p {
		if m := x.members[f.ID]; m != nil && m.freeSince.After(since) {
			since = m.freeSince
		}
	}
	return now.Sub(since)
}

// timeUp ends by count the races still in play EndGrace after the arena
// ended.
func (x *Arena) timeUp(ctx context.Context) {
	x.mu.Lock()
	ids := make([]string, 0, len(x.races))
	for id := range x.races {
		ids = append(ids, id)
	}
	x.mu.Unlock()
	for _, id := range ids {
		if err := x.reg.cfg.TimeUp(ctx, id); err != nil {
			x.reg.cfg.Logger.Warn("arena: end a race by count", "arena", x.id, "race", id, "err", err)
			continue
		}
		x.readRace(ctx, id, false)
	}
}

// raceOver tells the arena that one of its races ended.
func (x *Arena) raceOver(id string) {
	x.mu.Lock()
	x.ended = append(x.ended, id)
	x.mu.Unlock()
	x.poke()
}
