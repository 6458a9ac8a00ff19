package arena

import (
	"context"
	"sync"
	"time"

	"dsol/internal/game"
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
