package arena

import (
	"time"

	"dsol/internal/game"
)

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
	rows, at := x.standings()
	p := newPusher(x.view(now, rows, TopRows))
	for s := range x.subs {
		x.deliver(s, p.message(x.you(rows, at, s.player)))
	}
	if x.reg.cfg.Pushed != nil {
		x.reg.cfg.Pushed(x.reg.cfg.Clock().Sub(now))
	}
	return 0
}

// standings ranks the members, and returns each one's index in the rows
// (x.mu held).
func (x *Arena) standings() ([]Row, map[string]int) {
	es := make([]Entry, 0, len(x.members))
	for _, m := range x.members {
		es = append(es, Entry{Player: m.id, Tally: m.tally, Joined: m.joined})
	}
	Rank(es)
	rows := make([]Row, len(es))
	at := make(map[string]int, len(es))
	for i, e := range es {
		m := x.members[e.Player]
		at[m.id] = i
		rows[i] = Row{Rank: i + 1, Player: game.PlayerRef{ID: m.id, Name: m.name}, Score: m.tally.Score, Races: m.tally.Races,
			Wins: m.tally.Wins, Streak: m.tally.Streak, Fire: m.tally.OnFire(), Playing: m.race != "", Paused: m.paused}
	}
	return rows, at
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
func (x *Arena) personal(v *View, rows []Row, at map[string]int, player string) {
	row, you := x.you(rows, at, player)
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
func (x *Arena) you(rows []Row, at map[string]int, player string) (Row, *You) {
	m := x.members[player]
	if m == nil {
		return Row{}, nil
	}
	r := rows[at[player]]
	return r, &You{Rank: r.Rank, Paused: m.paused, Idle: m.idle, Race: m.race}
}
