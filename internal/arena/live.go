package arena

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"dsol/internal/game"
	"dsol/internal/rating"
	"dsol/internal/store"
)

// Arena is a live arena on the node that holds its lease: its players,
// their tallies, its races in play and its sockets. One goroutine (run)
// pairs, scores and pushes; the methods the transports call take its lock.
type Arena struct {
	reg *Registry
	id  string

	mu       sync.Mutex
	a        store.Arena
	members  map[string]*member
	joined   int                 // members ever joined, for their order
	nextN    int                 // the number of the next race paired
	races    map[string]*racing  // in play
	all      []*RaceRow          // every race, oldest first
	rows     map[string]*RaceRow // by id
	ended    []string            // races told over, not read yet
	subs     map[*Sub]struct{}
	present  map[string]int // open sockets by player
	dirty    bool           // the standings changed since the last push
	lastPush time.Time
	idleSubs time.Time // when the last socket went (zero: one is open)
	status   string    // as last pushed
	stopped  bool

	pairing bool           // a round of pairing is under way
	rounds  sync.WaitGroup // the round's goroutine
	ctx     context.Context
	cancel  context.CancelFunc // at halt: a round stops creating races

	kick chan struct{}
	stop chan struct{}
	done chan struct{}
}

// blocks returns whom player may not meet (Config.Blocks).
func (x *Arena) blocks(ctx context.Context, player string) ([]string, error) {
	if x.reg.cfg.Blocks == nil {
		return nil, nil
	}
	return x.reg.cfg.Blocks(ctx, player)
}

// member is a joined player.
type member struct {
	id, name  string
	rating    float64
	joined    int
	paused    bool
	idle      bool // paused because their seat stayed idle
	tally     Tally
	race      string // in play
	last      string // the opponent of their last race
	odd       bool   // left out of the last pairing
	freeSince time.Time
	busyUntil time.Time // a race outside the arena was in play when last paired
	avoid     []string  // players they blocked or were blocked by
}

// racing is a race in play.
type racing struct {
	seats     [2]string
	created   time.Time
	idleCheck bool // the idle seats were looked for
	polled    time.Time
}

// Sub is an arena socket's subscription: its messages, newest last. The
// channel is closed when the arena stops (the socket then closes and its
// client reconnects, reaching the arena's next owner).
type Sub struct {
	player string
	ch     chan []byte
}

// C is the subscription's messages.
func (s *Sub) C() <-chan []byte { return s.ch }

// subBuffer is how many messages a socket may fall behind before it is
// dropped.
const subBuffer = 64

// load reads the arena from the store: settings, players and races, and
// scores the races over.
func (x *Arena) load(ctx context.Context) error {
	st := x.reg.cfg.Store
	a, err := st.Arena(ctx, x.id)
	if err != nil {
		return err
	}
	ps, err := st.ArenaPlayers(ctx, x.id)
	if err != nil {
		return err
	}
	rs, err := st.ArenaRaces(ctx, x.id, "")
	if err != nil {
		return err
	}
	now := x.reg.cfg.Clock()
	x.a, x.status = a, StatusAt(a, now)
	for _, p := range ps {
		m := x.add(p, now)
		if m.avoid, err = x.blocks(ctx, p.ID); err != nil {
			return err
		}
	}
	x.nextN = 1
	for _, sr := range rs {
		x.nextN = max(x.nextN, sr.N+1)
		r := RaceOf(sr)
		row := x.row(r)
		for i, p := range r.Seats {
			if m := x.members[p]; m != nil {
				m.last = r.Seats[1-i]
			}
		}
		if !r.Over {
			x.races[r.ID] = &racing{seats: r.Seats, created: r.Created, idleCheck: now.Sub(r.Created) >= IdleWithin}
			for _, p := range r.Seats {
				if m := x.members[p]; m != nil {
					m.race = r.ID
				}
			}
			continue
		}
		x.scoreRace(r, row)
	}
	return nil
}

// add makes a stored player a member.
func (x *Arena) add(p store.ArenaPlayer, now time.Time) *member {
	m := &member{id: p.ID, name: p.Name, rating: p.Rating, joined: x.joined, paused: p.Paused, freeSince: now}
	x.joined++
	x.members[p.ID] = m
	return m
}

// row records a race in the list of races.
func (x *Arena) row(r Race) *RaceRow {
	row := x.rows[r.ID]
	if row == nil {
		row = &RaceRow{ID: r.ID, At: r.Created, Status: "playing"}
		for i, p := range r.Seats {
			row.Players[i] = x.ref(p)
		}
		x.rows[r.ID] = row
		x.all = append(x.all, row)
	}
	return row
}

// ref names a player of the arena's races.
func (x *Arena) ref(p string) game.PlayerRef {
	if m := x.members[p]; m != nil {
		return game.PlayerRef{ID: p, Name: m.name}
	}
	if p == store.DeletedPlayerID {
		return game.PlayerRef{ID: p, Deleted: true}
	}
	return game.PlayerRef{ID: p}
}

// scoreRace adds a race over to its players' tallies and its row.
func (x *Arena) scoreRace(r Race, row *RaceRow) {
	row.Status = "over"
	row.Winner = r.Winner
	if !r.Counted {
		return
	}
	for i, p := range r.Seats {
		m := x.members[p]
		if m == nil { // a deleted player: they left the standings
			continue
		}
		row.Points[i] = m.tally.Add(r, i+1)
	}
}

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

// send queues a message for every socket of player (x.mu held); a socket
// that fell too far behind is dropped.
func (x *Arena) send(player string, msg []byte) {
	for s := range x.subs {
		if s.player == player {
			x.deliver(s, msg)
		}
	}
}

func (x *Arena) deliver(s *Sub, msg []byte) {
	select {
	case s.ch <- msg:
	default:
		x.drop(s)
	}
}

// drop ends a subscription (x.mu held).
func (x *Arena) drop(s *Sub) {
	if _, ok := x.subs[s]; !ok {
		return
	}
	delete(x.subs, s)
	close(s.ch)
	x.present[s.player]--
	if x.present[s.player] <= 0 {
		delete(x.present, s.player)
	}
	if len(x.subs) == 0 {
		x.idleSubs = x.reg.cfg.Clock()
	}
}

// push sends the standings to every socket when they changed and the last
// push is PushEvery old; else it returns how long until it may.
func (x *Arena) push() time.Duration {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.dirty {
		return 0
	}
	now := x.reg.cfg.Clock()
	if wait := x.reg.cfg.PushEvery - now.Sub(x.lastPush); wait > 0 {
		return wait
	}
	x.dirty, x.lastPush = false, now
	rows := x.standings()
	p := newPusher(x.view(now, rows, TopRows))
	at := make(map[string]int, len(rows))
	for i, r := range rows {
		at[r.Player.ID] = i
	}
	for s := range x.subs {
		m, i := x.members[s.player], at[s.player]
		if m == nil {
			x.deliver(s, p.message(Row{}, nil))
			continue
		}
		x.deliver(s, p.message(rows[i], &You{Rank: rows[i].Rank, Paused: m.paused, Idle: m.idle, Race: m.race}))
	}
	if x.reg.cfg.Pushed != nil {
		x.reg.cfg.Pushed(x.reg.cfg.Clock().Sub(now))
	}
	return 0
}

// standings ranks the members (x.mu held).
func (x *Arena) standings() []Row {
	es := make([]Entry, 0, len(x.members))
	for _, m := range x.members {
		es = append(es, Entry{Player: m.id, Tally: m.tally, Joined: m.joined})
	}
	Rank(es)
	rows := make([]Row, len(es))
	for i, e := range es {
		m := x.members[e.Player]
		rows[i] = Row{Rank: i + 1, Player: game.PlayerRef{ID: m.id, Name: m.name}, Score: m.tally.Score, Races: m.tally.Races,
			Wins: m.tally.Wins, Streak: m.tally.Streak, Fire: m.tally.OnFire(), Playing: m.race != "", Paused: m.paused}
	}
	return rows
}

// view is the arena's view with the first top rows of the standings (all
// of them when top <= 0) (x.mu held).
func (x *Arena) view(now time.Time, rows []Row, top int) View {
	a := x.a
	if top > 0 && len(rows) > top {
		rows = rows[:top:top]
	}
	return View{ID: a.ID, Status: StatusAt(a, now), StartsAt: a.StartsAt, EndsAt: a.EndsAt, Now: now,
		Minutes: a.Minutes, Draw: a.Draw, Redeal: Redeal(a.Single), Players: len(x.members),
		Races: len(x.all), RacesInPlay: len(x.races), Standings: rows}
}

// personal adds player's own row (when the view's rows lack it) and their
// You (x.mu held).
func (x *Arena) personal(v *View, rows []Row, player string) {
	row, you := x.you(rows, player)
	if you == nil {
		return
	}
	v.You = you
	if row.Rank > len(v.Standings) {
		v.Standings = append(v.Standings, row)
	}
}

// you returns a member's row and You (nil for a player who did not join)
// (x.mu held).
func (x *Arena) you(rows []Row, player string) (Row, *You) {
	m := x.members[player]
	if m == nil {
		return Row{}, nil
	}
	for _, r := range rows {
		if r.Player.ID == player {
			return r, &You{Rank: r.Rank, Paused: m.paused, Idle: m.idle, Race: m.race}
		}
	}
	return Row{}, nil
}

// View returns the arena as player sees it, with all its standings.
func (x *Arena) View(player string) View {
	x.mu.Lock()
	defer x.mu.Unlock()
	rows := x.standings()
	v := x.view(x.reg.cfg.Clock(), rows, 0)
	x.personal(&v, rows, player)
	return v
}

// Races lists the arena's races, oldest first.
func (x *Arena) Races() []RaceRow {
	x.mu.Lock()
	defer x.mu.Unlock()
	out := make([]RaceRow, len(x.all))
	for i, r := range x.all {
		out[i] = *r
	}
	return out
}

// Join adds a player to the arena, or brings them back from a pause. An
// arena that is over takes no one (game.Conflict).
func (x *Arena) Join(ctx context.Context, p store.Player) error {
	cfg := &x.reg.cfg
	now := cfg.Clock()
	if StatusAt(x.arena(), now) == Over {
		return game.Errorf(game.Conflict, "the arena is over")
	}
	if err := cfg.Store.JoinArena(ctx, x.id, p.ID, now); err != nil {
		return err
	}
	rt, err := cfg.Store.Rating(ctx, p.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	avoid, err := x.blocks(ctx, p.ID)
	if err != nil {
		return err
	}
	x.mu.Lock()
	m := x.members[p.ID]
	if m == nil {
		m = x.add(store.ArenaPlayer{ID: p.ID, Name: p.Name, Rating: rt.Rating}, now)
	}
	m.avoid = avoid
	if m.paused {
		m.paused, m.idle, m.freeSince = false, false, now
	}
	x.dirty = true
	x.mu.Unlock()
	x.poke()
	return nil
}

// Leave pauses a player: not paired again until they join again; their
// points stay. game.NotFound if they did not join.
func (x *Arena) Leave(ctx context.Context, player string) error {
	if err := x.reg.cfg.Store.PauseArena(ctx, x.id, player, true); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return game.Errorf(game.NotFound, "you have not joined this arena")
		}
		return err
	}
	x.mu.Lock()
	if m := x.members[player]; m != nil {
		m.paused, m.idle = true, false
	}
	x.dirty = true
	x.mu.Unlock()
	x.poke()
	return nil
}

// Subscribe opens an arena socket's subscription for player: the view at
// once, and the race they are paired in while it is in play. protocol
// ErrStopped-like: nil and false when the arena has stopped.
func (x *Arena) Subscribe(player string) (*Sub, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.stopped {
		return nil, false
	}
	s := &Sub{player: player, ch: make(chan []byte, subBuffer)}
	x.subs[s] = struct{}{}
	x.present[player]++
	x.idleSubs = time.Time{}
	rows := x.standings()
	v := x.view(x.reg.cfg.Clock(), rows, TopRows)
	x.personal(&v, rows, player)
	s.ch <- encode(Message{Type: "arena", Arena: &v})
	if m := x.members[player]; m != nil {
		if m.race != "" {
			s.ch <- encode(Message{Type: "paired", Race: m.race})
		} else if x.present[player] == 1 {
			m.freeSince = x.reg.cfg.Clock()
		}
	}
	x.poke()
	return s, true
}

// Unsubscribe ends a subscription.
func (x *Arena) Unsubscribe(s *Sub) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.drop(s)
}

// forget drops a deleted player (Registry.Forget).
func (x *Arena) forget(player string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.members[player] == nil {
		return
	}
	delete(x.members, player)
	for s := range x.subs {
		if s.player == player {
			x.drop(s)
		}
	}
	for _, row := range x.all {
		for i := range row.Players {
			if row.Players[i].ID == player {
				row.Players[i] = game.PlayerRef{ID: store.DeletedPlayerID, Deleted: true}
			}
		}
	}
	for _, r := range x.races {
		for i := range r.seats {
			if r.seats[i] == player {
				r.seats[i] = store.DeletedPlayerID
			}
		}
	}
	x.dirty = true
	x.poke()
}

// halt stops the arena's goroutine and closes its subscriptions.
func (x *Arena) halt() {
	x.mu.Lock()
	if x.stopped {
		x.mu.Unlock()
		<-x.done
		return
	}
	x.stopped = true
	for s := range x.subs {
		x.drop(s)
	}
	x.mu.Unlock()
	x.cancel()
	close(x.stop)
	<-x.done
}

// unused reports whether the arena may stop: over, no race in play, no
// socket open for linger.
func (x *Arena) unused(now time.Time, linger time.Duration) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return StatusAt(x.a, now) == Over && len(x.races) == 0 && len(x.subs) == 0 && now.Sub(x.idleSubs) >= linger
}

// playersNow counts the members and how many have a socket open.
func (x *Arena) playersNow() (joined, present int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.members), len(x.present)
}
