// Package matchmaking is the quick-match queue: players waiting for an
// opponent of about their rating, paired as their windows widen, each told
// of their race through the watchers of their place.
package matchmaking

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"sync"
	"time"
)

// The queue of players waiting for an opponent is owned like a game: under
// the fixed id ID, whose lease the node that runs the queue holds (and
// renews while anybody waits: Live), so that in a cluster the match
// requests, routed by that id, all meet one queue; the caller takes the
// lease before Join. It lives in memory only: after a restart (or a
// handover) a waiting client re-queues when its match socket reconnects.
//
// One race at a time: a player with a race in play is refused (QuickMatch),
// and one who got into a race while waiting leaves the queue when their
// turn to pair comes (the Pair function refuses them with a BusyError;
// they are told "idle", and queuing again is then refused).
//
// Pairing: two waiting players pair when they asked for the same race
// options and their ratings differ by no more than the wider of their two
// windows. A player's window is Window (±100) and widens by Widen (50) for
// every WidenEvery (5 s) of waiting. A player
// coming in is paired at once with the closest-rated waiting player their
// windows allow (on a tie, the one waiting longest); players already
// waiting are looked at again every SweepEvery as their windows widen. A
// player never meets themselves: queuing again replaces their entry. Nor
// do two players of whom either blocked the other: each entry carries the
// players its player blocked or was blocked by, loaded when they queued,
// and a block made while they wait is added to the entries of both
// (Blocked) on the node that runs the queue.
const (
	ID         = "match"
	Window     = 100.0
	Widen      = 50.0
	WidenEvery = 5 * time.Second
	SweepEvery = time.Second
	// Unwatched is how long an entry stays without a match socket watching
	// it (between the POST's answer and the socket, or after a socket
	// dropped) before it leaves the queue; a race found meanwhile is kept
	// as long for the socket to collect.
	Unwatched = 10 * time.Second
)

// Entry is a player waiting for an opponent.
type Entry struct {
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
func (e *Entry) avoids(player string) bool {
	_, ok := e.Avoid[player]
	return ok
}

// window is how far from the entry's rating an opponent may be at now.
func (e *Entry) window(now time.Time) float64 {
	steps := math.Floor(float64(now.Sub(e.Since)) / float64(WidenEvery))
	return Window + Widen*max(steps, 0)
}

// Pair creates the race of two paired entries (first waited longer) with
// both seated and playing, and returns its id; a *BusyError when one of
// them has a race in play meanwhile.
type Pair func(ctx context.Context, first, second Entry) (string, error)

// BusyError refuses a pairing because a player has a race in play (one race
// at a time): that player leaves the queue, the other waits on.
type BusyError struct{ Player, Race string }

func (e *BusyError) Error() string {
	return "matchmaking: " + e.Player + " has the race " + e.Race + " in play"
}

// Message is what the match socket sends: {"type": "waiting", "since"},
// then {"type": "matched", "race"}; {"type": "idle"} when the player is
// not in the queue (queue again).
type Message struct {
	Type  string     `json:"type"`
	Since *time.Time `json:"since,omitempty"`
	Race  string     `json:"race,omitempty"`
}

// ErrNotQueued answers a match socket or a leave of a player not in the
// queue.
var ErrNotQueued = errors.New("matchmaking: not in the queue")

// Config holds the queue's dependencies.
type Config struct {
	// Pair creates the race of two paired players.
	Pair Pair
	// Clock is the queue's time (default time.Now).
	Clock  func() time.Time
	Logger *slog.Logger
	// Waiting is called with the number of players in the queue whenever
	// it changes, Wait with how long a player waited when paired (both
	// optional: metrics).
	Waiting func(n int)
	Wait    func(d time.Duration)
}

// Queue is the quick-match queue. Its methods are safe for concurrent use.
type Queue struct {
	cfg     Config
	mu      sync.Mutex
	waiting map[string]*queued   // by player
	matched map[string]matchedAt // races found for players whose socket has not collected them
	stop    chan struct{}        // closed to stop the sweeper; nil when none runs
	closed  bool
	wg      sync.WaitGroup // the sweeper
}

// New returns an empty queue.
func New(cfg Config) *Queue {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Queue{cfg: cfg, waiting: make(map[string]*queued), matched: make(map[string]matchedAt)}
}

type queued struct {
	Entry
	watchers map[chan []byte]struct{}
	alone    time.Time // since when no socket watches (zero: watched)
}

type matchedAt struct {
	race string
	at   time.Time
}

// Join puts a player in the queue, or pairs them at once: it returns the
// race's id when paired ("" when the player waits). The caller holds the
// queue's lease (ID).
func (q *Queue) Join(ctx context.Context, e Entry) (string, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.cfg.Clock()
	e.Since = now
	if old, ok := q.waiting[e.Player]; ok {
		e.Since = old.Since // queuing again keeps one's place
		q.remove(old, false)
	}
	delete(q.matched, e.Player)
	for {
		best := q.closest(&e, now)
		if best == nil {
			break
		}
		q.remove(best, false)
		id, err := q.cfg.Pair(ctx, best.Entry, e)
		if busy := (*BusyError)(nil); errors.As(err, &busy) && busy.Player == best.Player {
			q.tell(best, Message{Type: "idle"}) // in a race meanwhile: out of the queue
			continue
		}
		if err != nil {
			q.enqueue(best.Entry, now, best.watchers)
			return "", err
		}
		q.paired(best, id, now)
		q.observeWait(now.Sub(e.Since))
		return id, nil
	}
	q.enqueue(e, now, nil)
	return "", nil
}

// Leave takes a player out of the queue (ErrNotQueued when not in it).
func (q *Queue) Leave(player string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.matched, player)
	e, ok := q.waiting[player]
	if !ok {
		return ErrNotQueued
	}
	q.remove(e, true)
	return nil
}

// Watch follows a player's place in the queue: C gets the encoded
// Messages ("waiting" at once, or "matched" when a race was found
// already) and is closed after "matched", or when the player left the queue
// or the queue moved to another node (then "idle" first). ErrNotQueued:
// the player is not waiting. Close stops watching; the last watcher's
// leaving takes the player out of the queue after Unwatched.
func (q *Queue) Watch(player string) (<-chan []byte, func(), error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	c := make(chan []byte, 2)
	if m, ok := q.matched[player]; ok {
		delete(q.matched, player)
		c <- encodeMatch(Message{Type: "matched", Race: m.race})
		close(c)
		return c, func() {}, nil
	}
	e, ok := q.waiting[player]
	if !ok {
		return nil, nil, ErrNotQueued
	}
	since := e.Since.UTC()
	c <- encodeMatch(Message{Type: "waiting", Since: &since})
	e.watchers[c] = struct{}{}
	e.alone = time.Time{}
	return c, func() { q.unwatch(player, c) }, nil
}

func (q *Queue) unwatch(player string, c chan []byte) {
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
		e.alone = q.cfg.Clock()
	}
}

// Blocked tells the queue that a blocked b: from now on the two are
// never paired, whichever of them waits.
func (q *Queue) Blocked(a, b string) {
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

// Waiting returns how many players wait.
func (q *Queue) Waiting() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.waiting)
}

func encodeMatch(m Message) []byte {
	b, _ := json.Marshal(m)
	return b
}

// closest is the waiting entry e may pair with, or nil. q.mu is held.
func (q *Queue) closest(e *Entry, now time.Time) *queued {
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
func (q *Queue) enqueue(e Entry, now time.Time, watchers map[chan []byte]struct{}) {
	w := &queued{Entry: e, watchers: watchers}
	if w.watchers == nil {
		w.watchers = map[chan []byte]struct{}{}
	}
	if len(w.watchers) == 0 {
		w.alone = now
	}
	q.waiting[e.Player] = w
	if q.stop == nil && !q.closed {
		q.stop = make(chan struct{})
		q.wg.Add(1)
		go q.sweeper(q.stop)
	}
	q.countWaiting()
}

// remove takes an entry out; with idle its watchers are told and closed.
// q.mu is held.
func (q *Queue) remove(e *queued, idle bool) {
	delete(q.waiting, e.Player)
	if idle {
		q.tell(e, Message{Type: "idle"})
	}
	q.countWaiting()
	if len(q.waiting) == 0 && q.stop != nil {
		close(q.stop)
		q.stop = nil
	}
}

// paired tells an entry's watchers of its race, or keeps the race for a
// socket to come. q.mu is held.
func (q *Queue) paired(e *queued, race string, now time.Time) {
	q.observeWait(now.Sub(e.Since))
	if len(e.watchers) == 0 {
		q.matched[e.Player] = matchedAt{race: race, at: now}
		return
	}
	q.tell(e, Message{Type: "matched", Race: race})
}

// tell sends a last message to an entry's watchers and closes them.
func (q *Queue) tell(e *queued, m Message) {
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

func (q *Queue) countWaiting() {
	if q.cfg.Waiting != nil {
		q.cfg.Waiting(len(q.waiting))
	}
}

func (q *Queue) observeWait(d time.Duration) {
	if q.cfg.Wait != nil {
		q.cfg.Wait(d)
	}
}

// sweeper looks at the queue every SweepEvery while anybody waits.
func (q *Queue) sweeper(stop chan struct{}) {
	defer q.wg.Done()
	tick := time.NewTicker(SweepEvery)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			q.Sweep(context.Background())
		case <-stop:
			return
		}
	}
}

// Sweep pairs the waiting players whose windows widened enough, and drops
// the entries and races no socket watched for Unwatched.
func (q *Queue) Sweep(ctx context.Context) {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.cfg.Clock()
	for p, m := range q.matched {
		if now.Sub(m.at) >= Unwatched {
			delete(q.matched, p)
		}
	}
	for _, e := range q.waiting {
		if !e.alone.IsZero() && now.Sub(e.alone) >= Unwatched {
			q.remove(e, true)
		}
	}
	for {
		a, b := q.widened(now)
		if a == nil {
			return
		}
		q.remove(a, false)
		q.remove(b, false)
		id, err := q.cfg.Pair(ctx, a.Entry, b.Entry)
		if busy := (*BusyError)(nil); errors.As(err, &busy) {
			// One of them is in a race meanwhile: out of the queue; the
			// other waits on.
			out, other := a, b
			if busy.Player == b.Player {
				out, other = b, a
			}
			q.tell(out, Message{Type: "idle"})
			q.enqueue(other.Entry, now, other.watchers)
			continue
		}
		if err != nil {
			q.cfg.Logger.Warn("matchmaking: pair a quick match", "err", err)
			q.tell(a, Message{Type: "idle"})
			q.tell(b, Message{Type: "idle"})
			return
		}
		q.paired(a, id, now)
		q.paired(b, id, now)
	}
}

// widened finds two waiting entries that may pair now: the longest-waiting
// entry that has a partner, with its closest one. q.mu is held.
func (q *Queue) widened(now time.Time) (*queued, *queued) {
	var first, second *queued
	for _, w := range q.waiting {
		if first != nil && !w.Since.Before(first.Since) {
			continue
		}
		if o := q.closest(&w.Entry, now); o != nil {
			first, second = w, o
		}
	}
	return first, second
}

// Drop empties the queue, when this node no longer holds its lease or
// shuts down: every watcher is told "idle" and re-queues where the routing
// sends it.
func (q *Queue) Drop() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, e := range q.waiting {
		q.remove(e, true)
	}
	clear(q.matched)
}

// Live reports whether anybody waits, or a race waits for its player's
// socket: the queue's lease is renewed while it is.
func (q *Queue) Live() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.waiting) > 0 || len(q.matched) > 0
}

// Close empties the queue and stops its sweeper.
func (q *Queue) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.Drop()
	q.wg.Wait()
}
