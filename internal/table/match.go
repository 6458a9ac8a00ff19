package table

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"sync"
	"time"
)

// Quick match. The queue of players waiting for an opponent is owned like a
// game: under the fixed id MatchID, whose lease the node that runs the
// queue holds (and renews while anybody waits), so that in a cluster the
// match requests, routed by that id, all meet one queue. It lives in memory
// only: after a restart (or a handover) a waiting client re-queues when its
// match socket reconnects.
//
// One race at a time: a player with a race in play is refused (QuickMatch),
// and one who got into a race while waiting leaves the queue when their
// turn to pair comes (told "idle"; queuing again is then refused).
//
// Pairing: two waiting players pair when they asked for the same race
// options and their ratings differ by no more than the wider of their two
// windows. A player's window is MatchWindow (±100) and widens by
// MatchWiden (50) for every MatchWidenEvery (5 s) of waiting. A player
// coming in is paired at once with the closest-rated waiting player their
// windows allow (on a tie, the one waiting longest); players already
// waiting are looked at again every MatchSweep as their windows widen. A
// player never meets themselves: queuing again replaces their entry. Nor
// do two players of whom either blocked the other: each entry carries the
// players its player blocked or was blocked by, loaded when they queued,
// and a block made while they wait is added to the entries of both
// (MatchBlocked) on the node that runs the queue.
const (
	MatchID         = "match"
	MatchWindow     = 100.0
	MatchWiden      = 50.0
	MatchWidenEvery = 5 * time.Second
	MatchSweep      = time.Second
	// MatchUnwatched is how long an entry stays without a match socket
	// watching it (between the POST's answer and the socket, or after a
	// socket dropped) before it leaves the queue; a race found meanwhile is
	// kept as long for the socket to collect.
	MatchUnwatched = 10 * time.Second
)

// MatchEntry is a player waiting for an opponent.
type MatchEntry struct {
	Player string
	Rating float64
	// Key is the race options in a canonical form: only entries of the
	// same key pair. Options is what Pair needs to create the race.
	Key     string
	Options any
	Since   time.Time
	// Avoid's keys are the players this one blocked or was blocked by:
	// never paired with them (the values do not count).
	Avoid map[string]bool
}

// avoids reports whether e may not pair with player.
func (e *MatchEntry) avoids(player string) bool {
	_, ok := e.Avoid[player]
	return ok
}

// window is how far from the entry's rating an opponent may be at now.
func (e *MatchEntry) window(now time.Time) float64 {
	steps := math.Floor(float64(now.Sub(e.Since)) / float64(MatchWidenEvery))
	return MatchWindow + MatchWiden*max(steps, 0)
}

// MatchPair creates the race of two paired entries (first waited longer)
// with both seated and playing, and returns its id.
type MatchPair func(ctx context.Context, first, second MatchEntry) (string, error)

// MatchMessage is what the match socket sends: {"type": "waiting",
// "since"}, then {"type": "matched", "race"}; {"type": "idle"} when the
// player is not in the queue (queue again).
type MatchMessage struct {
	Type  string     `json:"type"`
	Since *time.Time `json:"since,omitempty"`
	Race  string     `json:"race,omitempty"`
}

// ErrNotQueued answers a match socket or a leave of a player not in the
// queue.
var ErrNotQueued = errors.New("table: not in the match queue")

// queue is the registry's match queue.
type queue struct {
	mu      sync.Mutex
	pair    MatchPair
	waiting map[string]*queued   // by player
	matched map[string]matchedAt // races found for players whose socket has not collected them
	stop    chan struct{}        // closed to stop the sweeper; nil when none runs
}

type queued struct {
	MatchEntry
	watchers map[chan []byte]struct{}
	alone    time.Time // since when no socket watches (zero: watched)
}

type matchedAt struct {
	race string
	at   time.Time
}

// SetMatchPair replaces the function that creates a paired race, which is
// by default the registry's own (a server-dealt race, both seated and
// playing). Call it before the first Match.
func (r *Registry) SetMatchPair(p MatchPair) {
	r.q.mu.Lock()
	r.q.pair = p
	r.q.mu.Unlock()
}

// Match puts a player in the queue, or pairs them at once: it returns the
// race's id when paired ("" when the player waits). An *ElsewhereError
// means another node runs the queue.
func (r *Registry) Match(ctx context.Context, e MatchEntry) (string, error) {
	if err := r.acquire(ctx, MatchID); err != nil {
		return "", err
	}
	q := &r.q
	q.mu.Lock()
	defer q.mu.Unlock()
	now := r.cfg.Clock()
	e.Since = now
	if old, ok := q.waiting[e.Player]; ok {
		e.Since = old.Since // queuing again keeps one's place
		r.remove(old, false)
	}
	delete(q.matched, e.Player)
	for {
		best := q.closest(&e, now)
		if best == nil {
			break
		}
		r.remove(best, false)
		id, err := q.pair(ctx, best.MatchEntry, e)
		if busy := (*busyError)(nil); errors.As(err, &busy) && busy.player == best.Player {
			r.tell(best, MatchMessage{Type: "idle"}) // in a race meanwhile: out of the queue
			continue
		}
		if err != nil {
			r.enqueue(best.MatchEntry, now, best.watchers)
			return "", err
		}
		r.paired(best, id, now)
		r.observeWait(now.Sub(e.Since))
		return id, nil
	}
	r.enqueue(e, now, nil)
	return "", nil
}

// Unmatch takes a player out of the queue (ErrNotQueued when not in it).
func (r *Registry) Unmatch(player string) error {
	q := &r.q
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.matched, player)
	e, ok := q.waiting[player]
	if !ok {
		return ErrNotQueued
	}
	r.remove(e, true)
	return nil
}

// MatchWatch follows a player's place in the queue: C gets the encoded
// MatchMessages ("waiting" at once, or "matched" when a race was found
// already) and is closed after "matched", or when the player left the queue
// or the queue moved to another node (then "idle" first). ErrNotQueued:
// the player is not waiting. Close stops watching; the last watcher's
// leaving takes the player out of the queue after MatchUnwatched.
func (r *Registry) MatchWatch(player string) (<-chan []byte, func(), error) {
	q := &r.q
	q.mu.Lock()
	defer q.mu.Unlock()
	c := make(chan []byte, 2)
	if m, ok := q.matched[player]; ok {
		delete(q.matched, player)
		c <- encodeMatch(MatchMessage{Type: "matched", Race: m.race})
		close(c)
		return c, func() {}, nil
	}
	e, ok := q.waiting[player]
	if !ok {
		return nil, nil, ErrNotQueued
	}
	since := e.Since.UTC()
	c <- encodeMatch(MatchMessage{Type: "waiting", Since: &since})
	e.watchers[c] = struct{}{}
	e.alone = time.Time{}
	return c, func() { r.unwatch(player, c) }, nil
}

func (r *Registry) unwatch(player string, c chan []byte) {
	q := &r.q
	q.mu.Lock()
	defer q.mu.Unlock()
	e, ok := q.waiting[player]
	if !ok {
		return
	}
	if _, ok := e.watchers[c]; !ok {
		return
	}
	delete(e.watchers, c)
	close(c)
	if len(e.watchers) == 0 {
		e.alone = r.cfg.Clock()
	}
}

// MatchBlocked tells the queue that a blocked b: from now on the two are
// never paired, whichever of them waits.
func (r *Registry) MatchBlocked(a, b string) {
	q := &r.q
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, p := range [][2]string{{a, b}, {b, a}} {
		if e, ok := q.waiting[p[0]]; ok {
			if e.Avoid == nil {
				e.Avoid = map[string]bool{}
			}
			e.Avoid[p[1]] = true
		}
	}
}

// MatchWaiting returns how many players wait.
func (r *Registry) MatchWaiting() int {
	r.q.mu.Lock()
	defer r.q.mu.Unlock()
	return len(r.q.waiting)
}

func encodeMatch(m MatchMessage) []byte {
	b, _ := json.Marshal(m)
	return b
}

// closest is the waiting entry e may pair with, or nil. q.mu is held.
func (q *queue) closest(e *MatchEntry, now time.Time) *queued {
	var best *queued
	for _, w := range q.waiting {
		if w.Player == e.Player || w.Key != e.Key || w.avoids(e.Player) || e.avoids(w.Player) {
			continue
		}
		d := math.Abs(w.Rating - e.Rating)
		if d > max(w.window(now), e.window(now)) {
			continue
		}
		if best == nil {
			best = w
			continue
		}
		bd := math.Abs(best.Rating - e.Rating)
		if d < bd || (d == bd && w.Since.Before(best.Since)) {
			best = w
		}
	}
	return best
}

// enqueue adds an entry (with the watchers it had). q.mu is held.
func (r *Registry) enqueue(e MatchEntry, now time.Time, watchers map[chan []byte]struct{}) {
	q := &r.q
	w := &queued{MatchEntry: e, watchers: watchers}
	if w.watchers == nil {
		w.watchers = map[chan []byte]struct{}{}
	}
	if len(w.watchers) == 0 {
		w.alone = now
	}
	q.waiting[e.Player] = w
	if q.stop == nil {
		q.stop = make(chan struct{})
		r.wg.Add(1)
		go r.sweepQueue(q.stop)
	}
	r.countWaiting()
}

// remove takes an entry out; with idle its watchers are told and closed.
// q.mu is held.
func (r *Registry) remove(e *queued, idle bool) {
	q := &r.q
	delete(q.waiting, e.Player)
	if idle {
		r.tell(e, MatchMessage{Type: "idle"})
	}
	r.countWaiting()
	if len(q.waiting) == 0 && q.stop != nil {
		close(q.stop)
		q.stop = nil
	}
}

// paired tells an entry's watchers of its race, or keeps the race for a
// socket to come. q.mu is held.
func (r *Registry) paired(e *queued, race string, now time.Time) {
	r.observeWait(now.Sub(e.Since))
	if len(e.watchers) == 0 {
		r.q.matched[e.Player] = matchedAt{race: race, at: now}
		return
	}
	r.tell(e, MatchMessage{Type: "matched", Race: race})
}

// tell sends a last message to an entry's watchers and closes them.
func (r *Registry) tell(e *queued, m MatchMessage) {
	b := encodeMatch(m)
	for c := range e.watchers {
		select {
		case c <- b:
		default: // the watcher has not read "waiting" yet: one slot is left for this
		}
		close(c)
	}
	clear(e.watchers)
}

func (r *Registry) countWaiting() {
	if r.cfg.Hooks.MatchWaiting != nil {
		r.cfg.Hooks.MatchWaiting(len(r.q.waiting))
	}
}

func (r *Registry) observeWait(d time.Duration) {
	if r.cfg.Hooks.MatchWait != nil {
		r.cfg.Hooks.MatchWait(d)
	}
}

// sweepQueue looks at the queue every MatchSweep while anybody waits.
func (r *Registry) sweepQueue(stop chan struct{}) {
	defer r.wg.Done()
	tick := time.NewTicker(MatchSweep)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			r.SweepQueue(context.Background())
		case <-stop:
			return
		case <-r.stopSwp:
			return
		}
	}
}

// SweepQueue pairs the waiting players whose windows widened enough, and
// drops the entries and races no socket watched for MatchUnwatched.
func (r *Registry) SweepQueue(ctx context.Context) {
	q := &r.q
	q.mu.Lock()
	defer q.mu.Unlock()
	now := r.cfg.Clock()
	for p, m := range q.matched {
		if now.Sub(m.at) >= MatchUnwatched {
			delete(q.matched, p)
		}
	}
	for _, e := range q.waiting {
		if !e.alone.IsZero() && now.Sub(e.alone) >= MatchUnwatched {
			r.remove(e, true)
		}
	}
	for {
		a, b := q.widened(now)
		if a == nil {
			return
		}
		r.remove(a, false)
		r.remove(b, false)
		id, err := q.pair(ctx, a.MatchEntry, b.MatchEntry)
		if busy := (*busyError)(nil); errors.As(err, &busy) {
			// One of them is in a race meanwhile: out of the queue; the
			// other waits on.
			out, other := a, b
			if busy.player == b.Player {
				out, other = b, a
			}
			r.tell(out, MatchMessage{Type: "idle"})
			r.enqueue(other.MatchEntry, now, other.watchers)
			continue
		}
		if err != nil {
			r.cfg.Logger.Warn("table: pair a quick match", "err", err)
			r.tell(a, MatchMessage{Type: "idle"})
			r.tell(b, MatchMessage{Type: "idle"})
			return
		}
		r.paired(a, id, now)
		r.paired(b, id, now)
	}
}

// widened finds two waiting entries that may pair now: the longest-waiting
// entry that has a partner, with its closest one. q.mu is held.
func (q *queue) widened(now time.Time) (*queued, *queued) {
	var first, second *queued
	for _, w := range q.waiting {
		if first != nil && !w.Since.Before(first.Since) {
			continue
		}
		if o := q.closest(&w.MatchEntry, now); o != nil {
			first, second = w, o
		}
	}
	return first, second
}

// dropQueue empties the queue when this node no longer holds its lease:
// every watcher is told "idle" and re-queues where the routing sends it.
func (r *Registry) dropQueue() {
	q := &r.q
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, e := range q.waiting {
		r.remove(e, true)
	}
	clear(q.matched)
}

// queueLive reports whether anybody waits, so that the queue's lease is
// renewed.
func (r *Registry) queueLive() bool {
	r.q.mu.Lock()
	defer r.q.mu.Unlock()
	return len(r.q.waiting) > 0 || len(r.q.matched) > 0
}
