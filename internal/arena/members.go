package arena

import (
	"context"
	"errors"
	"time"

	"dsol/internal/game"
	"dsol/internal/store"
)

// View returns the arena as player sees it, with all its standings.
func (x *Arena) View(player string) View {
	x.mu.Lock()
	defer x.mu.Unlock()
	rows, at := x.standings()
	v := x.view(x.reg.cfg.Clock(), rows, 0)
	x.personal(&v, rows, at, player)
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
	rows, at := x.standings()
	s.ch <- newPusher(x.view(x.reg.cfg.Clock(), rows, TopRows)).message(x.you(rows, at, player))
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
