// Package lobby is the list of open public races (GET
// /api/v1/lobby) and the in-process hub that keeps lobby sockets up to date.
//
// The hub reloads the list from the store when a handler of this node says it
// changed (a public race created, joined or cancelled), at most once per
// Debounce, and every Refresh besides, so that the lists of several nodes
// converge on the changes made elsewhere. It runs only while somebody
// listens. Every subscriber holds one slot: a new list replaces one its
// reader has not taken yet, so a slow reader only ever gets the latest list
// and never holds the hub up.
package lobby

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/race"
	"dsol/internal/store"
)

// DefaultLimit is the most races a lobby lists.
const DefaultLimit = 50

// Race is one open race of the lobby. It never names the race's code (the
// code tells the deal): Commitment binds it, and ChosenDeal tells a joiner
// that the creator chose the deal (and so may know it).
type Race struct {
	ID           string         `json:"id"`
	Commitment   string         `json:"commitment"`
	ChosenDeal   bool           `json:"chosenDeal"`
	Draw         int            `json:"draw"`
	Redeal       string         `json:"redeal"`
	Decks        string         `json:"decks"`
	Turns        string         `json:"turns"`
	First        string         `json:"first,omitempty"`
	TurnSeconds  int            `json:"turnSeconds,omitempty"`
	SoloOutBonus bool           `json:"soloOutBonus"`
	Series       int            `json:"series"`
	Creator      game.PlayerRef `json:"creator"`
	// CreatorRating is the creator's rating, rounded (1500 for a player
	// never rated); CreatorProvisional says it is provisional.
	CreatorRating      int       `json:"creatorRating"`
	CreatorProvisional bool      `json:"creatorProvisional"`
	CreatedAt          time.Time `json:"createdAt"`
}

// Listing is the lobby's list and what it takes to show it to each player:
// nobody sees the races of a player they blocked or were blocked by.
type Listing struct {
	Races []Race
	// hide holds, for each player who is to miss some races, the creators
	// of those races.
	hide map[string]map[string]bool
}

// For returns the races player may see, oldest first.
func (l Listing) For(player string) []Race {
	hide := l.hide[player]
	if len(hide) == 0 {
		return l.Races
	}
	out := make([]Race, 0, len(l.Races))
	for _, r := range l.Races {
		if !hide[r.Creator.ID] {
			out = append(out, r)
		}
	}
	return out
}

// Store is what the lobby reads: the open races, their creators' names and
// ratings, and the blocks among them.
type Store interface {
	OpenRaces(ctx context.Context, limit int) ([]store.Game, error)
	Player(ctx context.Context, id string) (store.Player, error)
	Rating(ctx context.Context, playerID string) (store.Rating, error)
	BlocksAmong(ctx context.Context, ids []string) ([]store.Block, error)
}

// List loads the public races waiting for a second player, oldest first, at
// most limit of them, with the blocks of their creators. Rows that do not
// parse are left out.
func List(ctx context.Context, st Store, limit int) (Listing, error) {
	gs, err := st.OpenRaces(ctx, limit)
	if err != nil {
		return Listing{}, err
	}
	out := make([]Race, 0, len(gs))
	type creator struct {
		name        string
		rating      int
		provisional bool
	}
	creators := map[string]creator{}
	for _, g := range gs {
		c, err := cards.ParseCode(g.Code)
		if err != nil {
			continue
		}
		o, err := game.ParseRaceOptions(g.Options)
		if err != nil {
			continue
		}
		cr, ok := creators[g.Seats[0]]
		if !ok {
			if pl, err := st.Player(ctx, g.Seats[0]); err == nil {
				cr.name = pl.Name
			}
			rt, err := st.Rating(ctx, g.Seats[0])
			if err != nil {
				return Listing{}, err
			}
			cr.rating, cr.provisional = game.RoundRating(rt.Rating), rt.Provisional()
			creators[g.Seats[0]] = cr
		}
		lr := Race{ID: g.ID, Commitment: cards.Commitment(c.String(), g.Salt), ChosenDeal: o.Chosen, Draw: c.Draw, Redeal: race.Redeal(c), Decks: race.Decks(c),
			Turns: o.Turns, TurnSeconds: o.TurnSeconds, SoloOutBonus: o.SoloOutBonus, Series: o.Series,
			Creator: game.PlayerRef{ID: g.Seats[0], Name: cr.name}, CreatorRating: cr.rating, CreatorProvisional: cr.provisional, CreatedAt: g.CreatedAt}
		if lr.Turns == "" {
			lr.Turns = "simultaneous"
		}
		if lr.Turns == "alternating" {
			lr.First = o.First
		}
		out = append(out, lr)
	}
	ids := make([]string, 0, len(creators))
	for id := range creators {
		ids = append(ids, id)
	}
	bs, err := st.BlocksAmong(ctx, ids)
	if err != nil {
		return Listing{}, err
	}
	l := Listing{Races: out, hide: map[string]map[string]bool{}}
	for _, b := range bs {
		for _, p := range [][2]string{{b.PlayerID, b.BlockedID}, {b.BlockedID, b.PlayerID}} {
			if _, ok := creators[p[1]]; !ok {
				continue
			}
			if l.hide[p[0]] == nil {
				l.hide[p[0]] = map[string]bool{}
			}
			l.hide[p[0]][p[1]] = true
		}
	}
	return l, nil
}

// message encodes the list as player sees it: full, the whole list
// encoded, unless player is to miss some races.
func (l Listing) message(player string, full []byte) ([]byte, error) {
	if len(l.hide[player]) == 0 {
		return full, nil
	}
	return json.Marshal(Message{Type: "lobby", Races: l.For(player)})
}

// Message is the lobby socket's only server message: {"type": "lobby",
// "races": […]}, the races as GET /api/v1/lobby lists them.
type Message struct {
	Type  string `json:"type"`
	Races []Race `json:"races"`
}

// ErrClosed is returned by Subscribe once the hub is closed.
var ErrClosed = errors.New("lobby: hub closed")

// Config holds the store and the timings of a Hub. Zero values take the
// defaults.
type Config struct {
	Store Store
	// Limit is the most races listed (default DefaultLimit).
	Limit int
	// Debounce is the shortest time between two reloads caused by Changed
	// (default 250ms).
	Debounce time.Duration
	// Refresh is the period of the reloads that pick up other nodes' changes
	// (default 5s).
	Refresh time.Duration
	// LoadTimeout bounds one reload (default 5s).
	LoadTimeout time.Duration
	Logger      *slog.Logger
}

// Hub broadcasts the lobby list to its subscribers.
type Hub struct {
	cfg    Config
	kick   chan struct{} // Changed: buffered (1)
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{} // closed by Close
	wg     sync.WaitGroup

	mu     sync.Mutex
	subs   map[*Sub]struct{}
	list   *Listing      // the latest list, nil before the first load
	full   []byte        // list's message as a player missing no race sees it
	stop   chan struct{} // closed to stop the running loop; nil when none runs
	closed bool
}

// Sub is one subscriber of the hub.
type Sub struct {
	h      *Hub
	player string      // whose list it is
	last   []byte      // the message offered last
	c      chan []byte // one slot: the latest message not yet taken
	// C delivers the encoded messages ({"type": "lobby", …}) of the list
	// as the player sees it: the current list right away when the hub has
	// one, then each new list. A list replaces the one still waiting in C.
	C <-chan []byte
}

// NewHub returns a hub over cfg.Store. It starts no goroutine until the
// first subscriber arrives.
func NewHub(cfg Config) *Hub {
	if cfg.Limit <= 0 {
		cfg.Limit = DefaultLimit
	}
	if cfg.Debounce <= 0 {
		cfg.Debounce = 250 * time.Millisecond
	}
	if cfg.Refresh <= 0 {
		cfg.Refresh = 5 * time.Second
	}
	if cfg.LoadTimeout <= 0 {
		cfg.LoadTimeout = 5 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Hub{cfg: cfg, kick: make(chan struct{}, 1), ctx: ctx, cancel: cancel,
		done: make(chan struct{}), subs: make(map[*Sub]struct{})}
}

// List loads the current list from the store (GET /api/v1/lobby shows
// its For).
func (h *Hub) List(ctx context.Context) (Listing, error) {
	return List(ctx, h.cfg.Store, h.cfg.Limit)
}

// Changed tells the hub that the list may have changed on this node; the
// subscribers get the new list within Debounce. It never blocks.
func (h *Hub) Changed() {
	select {
	case h.kick <- struct{}{}:
	default:
	}
}

// Done is closed when the hub is closed.
func (h *Hub) Done() <-chan struct{} { return h.done }

// Subscribe adds a subscriber following the list as player sees it; Close
// it when done.
func (h *Hub) Subscribe(player string) (*Sub, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrClosed
	}
	s := &Sub{h: h, player: player, c: make(chan []byte, 1)}
	s.C = s.c
	if h.list != nil {
		h.offer(s)
	}
	h.subs[s] = struct{}{}
	if h.stop == nil {
		h.stop = make(chan struct{})
		h.wg.Add(1)
		go h.run(h.stop)
	}
	return s, nil
}

// Close ends the subscription; the hub stops reloading with the last one.
func (s *Sub) Close() {
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[s]; !ok {
		return
	}
	delete(h.subs, s)
	if len(h.subs) == 0 {
		h.halt()
	}
}

// halt stops the running loop; its list is stale from now on. h.mu is held.
func (h *Hub) halt() {
	if h.stop != nil {
		close(h.stop)
		h.stop = nil
	}
	h.list, h.full = nil, nil
}

// Close stops the hub: Subscribe fails from now on, Done is closed (lobby
// sockets close with 1012) and Close waits for the loop to end.
func (h *Hub) Close() {
	h.mu.Lock()
	if !h.closed {
		h.closed = true
		h.halt()
		clear(h.subs)
		close(h.done)
	}
	h.mu.Unlock()
	h.cancel()
	h.wg.Wait()
}

// run is the reload loop of one stretch with subscribers: a load at once,
// then on Changed (debounced) and every Refresh, until stop is closed.
func (h *Hub) run(stop chan struct{}) {
	defer h.wg.Done()
	refresh := time.NewTicker(h.cfg.Refresh)
	defer refresh.Stop()
	var timer *time.Timer
	var fire <-chan time.Time
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	var loaded time.Time
	load := func() {
		loaded = time.Now()
		h.load(stop)
	}
	load()
	for {
		select {
		case <-stop:
			return
		case <-refresh.C:
			load()
		case <-h.kick:
			if fire != nil {
				continue // a reload is already due
			}
			wait := h.cfg.Debounce - time.Since(loaded)
			if wait <= 0 {
				load()
				continue
			}
			timer = time.NewTimer(wait)
			fire = timer.C
		case <-fire:
			fire = nil
			load()
		}
	}
}

// load reloads the list and offers it to every subscriber whose list
// changed. A failed load keeps the last list until the next one.
func (h *Hub) load(stop chan struct{}) {
	ctx, cancel := context.WithTimeout(h.ctx, h.cfg.LoadTimeout)
	l, err := h.List(ctx)
	cancel()
	if err != nil {
		if h.ctx.Err() == nil {
			h.cfg.Logger.Warn("lobby: load the open races", "err", err)
		}
		return
	}
	full, err := json.Marshal(Message{Type: "lobby", Races: l.Races})
	if err != nil {
		h.cfg.Logger.Error("lobby: encode", "err", err)
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stop != stop {
		return // stopped meanwhile
	}
	h.list, h.full = &l, full
	for s := range h.subs {
		h.offer(s)
	}
}

// offer gives a subscriber the list as its player sees it, unless that is
// what it was offered last. h.mu is held.
func (h *Hub) offer(s *Sub) {
	b, err := h.list.message(s.player, h.full)
	if err != nil {
		h.cfg.Logger.Error("lobby: encode", "err", err)
		return
	}
	if bytes.Equal(b, s.last) {
		return
	}
	s.last = b
	s.offer(b)
}

// offer puts a message in the subscriber's slot, replacing one not yet
// taken. Only the hub sends, under h.mu, so it never blocks.
func (s *Sub) offer(b []byte) {
	select {
	case s.c <- b:
		return
	default:
	}
	select {
	case <-s.c:
	default:
	}
	select {
	case s.c <- b:
	default:
	}
}
