package arena

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"dsol/internal/store"
)

// testArena is the id of the tests' arena.
const testArena = "arena0000001"

// memStore is an arena's store in memory, for the live arena's tests: one
// arena, its players, its races and their first actions.
type memStore struct {
	mu      sync.Mutex
	arena   store.Arena
	players []store.ArenaPlayer
	races   []store.ArenaRace
	inRace  map[string]string // player → race in play
	twice   []string          // players seated in two races at once
}

func (m *memStore) Arena(_ context.Context, id string) (store.Arena, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id != m.arena.ID {
		return store.Arena{}, store.ErrNotFound
	}
	a := m.arena
	a.Players = len(m.players)
	return a, nil
}

func (m *memStore) ArenaPlayers(context.Context, string) ([]store.ArenaPlayer, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]store.ArenaPlayer(nil), m.players...), nil
}

func (m *memStore) ArenaRaces(_ context.Context, _, game string) ([]store.ArenaRace, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []store.ArenaRace
	for _, r := range m.races {
		if game == "" || r.GameID == game {
			out = append(out, r)
		}
	}
	return out, nil
}

func (m *memStore) JoinArena(_ context.Context, _, player string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.players {
		if m.players[i].ID == player {
			m.players[i].Paused = false
			return nil
		}
	}
	m.players = append(m.players, store.ArenaPlayer{ID: player, Name: "name of " + player, JoinedAt: at})
	return nil
}

func (m *memStore) PauseArena(_ context.Context, _, player string, paused bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.players {
		if m.players[i].ID == player {
			m.players[i].Paused = paused
			return nil
		}
	}
	return store.ErrNotFound
}

func (m *memStore) Game(_ context.Context, id string) (store.Game, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.races {
		if r.GameID == id {
			return store.Game{ID: id, Status: r.Status}, nil
		}
	}
	return store.Game{}, store.ErrNotFound
}

func (m *memStore) Rating(context.Context, string) (store.Rating, error) {
	return store.Rating{Rating: 1500}, nil
}

// pair is Config.Pair: a race in play, refused for a player in one.
func (m *memStore) pair(now func() time.Time) func(context.Context, store.Arena, int, string, string) (string, error) {
	return func(_ context.Context, _ store.Arena, n int, p1, p2 string) (string, error) {
		m.mu.Lock()
		defer m.mu.Unlock()
		for _, p := range []string{p1, p2} {
			if m.inRace[p] != "" {
				m.twice = append(m.twice, p)
				return "", &BusyError{Player: p}
			}
		}
		id := fmt.Sprint("race", n)
		m.races = append(m.races, store.ArenaRace{N: n, GameID: id, Seats: [2]string{p1, p2}, Status: "playing", CreatedAt: now()})
		m.inRace[p1], m.inRace[p2] = id, id
		return id, nil
	}
}

// finish ends a race in play with a result and each seat's first action
// (idle: none in its first IdleWithin).
func (m *memStore) finish(id string, winner int, idle [2]bool, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.races {
		r := &m.races[i]
		if r.GameID != id || r.Status != "playing" {
			continue
		}
		r.Status, r.EndedAt = "over", now
		var w any = winner
		if winner == 0 {
			w = nil
		}
		r.Result, _ = json.Marshal(map[string]any{"winner": w})
		for s := range 2 {
			r.First[s] = r.CreatedAt.Add(time.Second)
			if idle[s] {
				r.First[s] = time.Time{}
			}
			delete(m.inRace, r.Seats[s])
		}
	}
}

// TestArenaSimulation runs arenas of random players who come, go, leave
// and come back, and races that end at random times with random results
// (some seats idle), on a fake clock, and checks that nobody is ever seated
// in two races, that no free player waits longer than the pairing interval
// while another free player they may meet waits too (two who just met may
// wait RematchWait for someone else), that an idle seat pauses its player,
// and that the live standings equal their recomputation from the stored
// races.
func TestArenaSimulation(t *testing.T) {
	for seed := range uint64(30) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { simulate(t, seed) })
		})
	}
}

func simulate(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	start := time.Now()
	st := &memStore{arena: store.Arena{ID: testArena, Minutes: 30, Draw: 1, StartsAt: start, EndsAt: start.Add(30 * time.Minute)},
		inRace: map[string]string{}}
	reg := NewRegistry(Config{Store: st, Pair: st.pair(time.Now), Clock: time.Now,
		TimeUp: func(_ context.Context, race string) error {
			st.finish(race, 0, [2]bool{}, time.Now())
			return nil
		},
		PollEvery: time.Hour}) // every end is told through RaceOver
	defer reg.Close()
	ctx := context.Background()
	x, err := reg.Get(ctx, testArena)
	if err != nil {
		t.Fatal(err)
	}
	n := 2 + rng.IntN(11)
	subs := make([]*Sub, n)
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprint("p", i)
	}
	drain := func(s *Sub) {
		for range s.C() {
		}
	}
	ends := map[string]time.Time{} // race → when it ends
	idlePaused := map[string]bool{}
	for step := 0; step < 3000; step++ {
		now := time.Now()
		// Players arrive, open and close their sockets, leave and come back.
		i := rng.IntN(n)
		switch r := rng.IntN(100); {
		case r < 3 && subs[i] == nil:
			if err := x.Join(ctx, store.Player{ID: ids[i], Name: ids[i]}); err != nil {
				t.Fatal(err)
			}
			s, ok := x.Subscribe(ids[i])
			if !ok {
				t.Fatal("arena stopped")
			}
			subs[i] = s
			go drain(s)
		case r < 4 && subs[i] != nil:
			x.Unsubscribe(subs[i])
			subs[i] = nil
		case r < 5:
			_ = x.Leave(ctx, ids[i])
		}
		// Races end when their time comes; a few start idle.
		st.mu.Lock()
		var over []string
		for _, r := range st.races {
			if r.Status != "playing" {
				continue
			}
			if _, ok := ends[r.GameID]; !ok {
				ends[r.GameID] = r.CreatedAt.Add(time.Duration(5+rng.IntN(120)) * time.Second)
			}
			if !now.Before(ends[r.GameID]) {
				over = append(over, r.GameID)
			}
		}
		st.mu.Unlock()
		for _, id := range over {
			idle := [2]bool{rng.IntN(10) == 0, rng.IntN(10) == 0}
			st.finish(id, rng.IntN(3), idle, now)
			reg.RaceOver(testArena, id)
		}
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		checkWaits(t, x, time.Now())
		for _, p := range st.players {
			if p.Paused {
				idlePaused[p.ID] = true
			}
		}
	}
	// Everyone leaves; the races end; the standings are the stored races'.
	for i := range subs {
		if subs[i] != nil {
			x.Unsubscribe(subs[i])
		}
	}
	st.mu.Lock()
	var left []string
	for _, r := range st.races {
		if r.Status == "playing" {
			left = append(left, r.GameID)
		}
	}
	st.mu.Unlock()
	for _, id := range left {
		st.finish(id, 1, [2]bool{}, time.Now())
		reg.RaceOver(testArena, id)
	}
	time.Sleep(time.Second)
	synctest.Wait()
	if len(st.twice) > 0 {
		t.Fatalf("seated in two races: %v", st.twice)
	}
	rs, _ := st.ArenaRaces(ctx, testArena, "")
	races := make([]Race, len(rs))
	for i, r := range rs {
		races[i] = RaceOf(r)
	}
	want := Score(races)
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.races) != 0 {
		t.Fatalf("%d races still in play", len(x.races))
	}
	for id, m := range x.members {
		w := Tally{}
		if t := want[id]; t != nil {
			w = *t
		}
		if m.tally != w {
			t.Fatalf("%s: live %+v, from the stored races %+v", id, m.tally, w)
		}
	}
	if len(rs) < n/2 {
		t.Fatalf("only %d races for %d players", len(rs), n)
	}
}

// checkWaits fails when two free players who may meet have both waited
// longer than the pairing interval (and its slack) at now.
func checkWaits(t *testing.T, x *Arena, now time.Time) {
	t.Helper()
	x.mu.Lock()
	defer x.mu.Unlock()
	limit := 2*x.reg.cfg.PairEvery + 200*time.Millisecond
	var free []*member
	for _, m := range x.members {
		if !m.paused && m.race == "" && x.present[m.id] > 0 && now.Sub(m.freeSince) > limit {
			free = append(free, m)
		}
	}
	for i, a := range free {
		for _, b := range free[i+1:] {
			met := a.last == b.id || b.last == a.id
			if !met || (now.Sub(a.freeSince) > RematchWait+limit && now.Sub(b.freeSince) > RematchWait+limit) {
				t.Fatalf("%s and %s both free for %v and %v, not paired", a.id, b.id, now.Sub(a.freeSince), now.Sub(b.freeSince))
			}
		}
	}
}

// TestArenaPushesStartAndEnd: a socket is pushed the arena's view when it
// starts and when it ends, with nothing else changing.
func TestArenaPushesStartAndEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now().Add(time.Minute)
		st := &memStore{arena: store.Arena{ID: testArena, Minutes: 5, StartsAt: start, EndsAt: start.Add(5 * time.Minute)}, inRace: map[string]string{}}
		reg := NewRegistry(Config{Store: st, Pair: st.pair(time.Now), Clock: time.Now, TimeUp: func(context.Context, string) error { return nil }})
		defer reg.Close()
		x, err := reg.Get(context.Background(), testArena)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := x.Subscribe("watcher")
		status := func() string {
			t.Helper()
			var m Message
			if err := json.Unmarshal(<-s.C(), &m); err != nil || m.Type != "arena" {
				t.Fatalf("%+v, %v", m, err)
			}
			return m.Arena.Status
		}
		if got := status(); got != Waiting {
			t.Fatalf("at once: %s", got)
		}
		time.Sleep(time.Minute + 2*time.Second)
		if got := status(); got != Running {
			t.Fatalf("at the start: %s", got)
		}
		time.Sleep(5 * time.Minute)
		if got := status(); got != Over {
			t.Fatalf("at the end: %s", got)
		}
		x.Unsubscribe(s)
	})
}

// TestArenaPolls: the end of a race stored by another node (no RaceOver
// here) is found by looking the race up every PollEvery; a race whose
// table runs here only every LocalPollEvery.
func TestArenaPolls(t *testing.T) {
	for _, local := range []bool{false, true} {
		t.Run(fmt.Sprint("local=", local), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				now := time.Now()
				st := &memStore{arena: store.Arena{ID: testArena, Minutes: 60, StartsAt: now, EndsAt: now.Add(time.Hour)}, inRace: map[string]string{}}
				reg := NewRegistry(Config{Store: st, Pair: st.pair(time.Now), Clock: time.Now, TimeUp: func(context.Context, string) error { return nil },
					Local: func(string) bool { return local }})
				defer reg.Close()
				ctx := context.Background()
				x, err := reg.Get(ctx, testArena)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range []string{"p1", "p2"} {
					if err := x.Join(ctx, store.Player{ID: p, Name: p}); err != nil {
						t.Fatal(err)
					}
					s, _ := x.Subscribe(p)
					go func() {
						for range s.C() {
						}
					}()
				}
				time.Sleep(2 * time.Second)
				synctest.Wait()
				if len(st.races) != 1 {
					t.Fatalf("%d races", len(st.races))
				}
				st.finish(st.races[0].GameID, 1, [2]bool{}, time.Now())
				scored := func() int {
					x.mu.Lock()
					defer x.mu.Unlock()
					return x.members["p1"].tally.Races
				}
				time.Sleep(DefaultPollEvery + time.Second)
				synctest.Wait()
				if got, want := scored(), map[bool]int{false: 1, true: 0}[local]; got != want {
					t.Fatalf("after %v: %d races scored, want %d", DefaultPollEvery, got, want)
				}
				time.Sleep(LocalPollEvery)
				synctest.Wait()
				if scored() != 1 {
					t.Fatal("the race's end never found")
				}
				reg.Close()
			})
		})
	}
}
