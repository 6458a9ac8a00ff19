package main

// An arena through nginx: its players' sockets and races reach the node that
// owns it by the shipped routing, and they survive the death of that node.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"dsol/internal/arena"
)

// arenaPlayer is a player of the arena test: its arena socket through
// nginx, connected again whenever it closes, and the races it is paired in,
// played by a racer each.
type arenaPlayer struct {
	name, id, token string
	paired          chan pairedAt
	reconnects      atomic.Int64

	mu    sync.Mutex
	races []playedRace // paired, in order
}

// pairedAt is a "paired" message and when it came.
type pairedAt struct {
	race string
	at   time.Time
}

// playedRace is a race of an arena player: when it was paired and when the
// player saw it end (zero: not played to its end).
type playedRace struct {
	id           string
	paired, over time.Time
}

// follow keeps the player's arena socket open through the front until ctx
// ends, connecting again when it closes, and hands on its "paired"
// messages.
func (a *arenaPlayer) follow(ctx context.Context, wsBase, arenaID string) error {
	for first := true; ctx.Err() == nil; {
		c, res, err := websocket.Dial(ctx, wsBase+"/api/v1/arenas/"+arenaID+"/ws", &websocket.DialOptions{
			HTTPHeader: http.Header{"Authorization": {"Bearer " + a.token}},
		})
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if res != nil && res.StatusCode != http.StatusBadGateway && res.StatusCode != http.StatusServiceUnavailable {
				return fmt.Errorf("%s: the arena socket: %v", a.name, err)
			}
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if !first {
			a.reconnects.Add(1)
		}
		first = false
		c.SetReadLimit(1 << 20)
		for {
			var m struct{ Type, Race, Reason string }
			if err := wsjson.Read(ctx, c, &m); err != nil {
				break
			}
			switch m.Type {
			case "paired":
				select {
				case a.paired <- pairedAt{m.Race, time.Now()}:
				case <-ctx.Done():
				}
			case "paused":
				c.CloseNow()
				return fmt.Errorf("%s: paused (%s)", a.name, m.Reason)
			}
		}
		c.CloseNow()
	}
	return nil
}

// play plays every race the player is paired in, one at a time, until stop
// ends and no pairing is waiting; each race to its end, through nginx.
func (a *arenaPlayer) play(ctx, stop context.Context, p *clusterPlay, wsBase string) error {
	seen := map[string]bool{}
	for {
		var m pairedAt
		select {
		case m = <-a.paired:
		case <-stop.Done():
			select {
			case m = <-a.paired:
			case <-time.After(500 * time.Millisecond): // one told as the socket closed
				return nil
			}
		}
		if seen[m.race] {
			continue // told again on a reconnect
		}
		seen[m.race] = true
		g, err := p.db.Game(ctx, m.race)
		if err != nil {
			return fmt.Errorf("%s: race %s: %v", a.name, m.race, err)
		}
		seat := slices.Index(g.Seats[:], a.id) + 1
		if seat == 0 {
			return fmt.Errorf("%s: paired in race %s, whose seats are %v", a.name, m.race, g.Seats)
		}
		a.mu.Lock()
		a.races = append(a.races, playedRace{id: m.race, paired: m.at})
		a.mu.Unlock()
		r, err := newRacer(fmt.Sprintf("%s-%d", a.name, len(seen)), seat, a.token, m.race, g.Code, wsBase, &p.acks)
		if err != nil {
			return err
		}
		r.viewEvery = 10
		if err := r.play(ctx); err != nil {
			return fmt.Errorf("%s: race %s: %w", a.name, m.race, err)
		}
		a.mu.Lock()
		a.races[len(a.races)-1].over = time.Now()
		a.mu.Unlock()
	}
}

// racesSince counts the player's races paired after t and played to their
// end.
func (a *arenaPlayer) racesSince(t time.Time) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, r := range a.races {
		if r.paired.After(t) && !r.over.IsZero() {
			n++
		}
	}
	return n
}

// testNginxArena: six players join an arena through nginx and play its
// races; the node that owns the arena is killed with SIGKILL once each has
// finished a race; their arena sockets reconnect through nginx to the next
// owner, which goes on pairing them. At the end the arena's standings, as
// the front serves them, equal their recomputation from the races stored,
// and no player was ever seated in two races at once.
func testNginxArena(t *testing.T, bin string) {
	c := startCluster(t, bin, 3, clusterFlags...)
	p := openPlay(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 240*time.Second)
	defer cancel()
	wsBase := "ws" + strings.TrimPrefix(p.front, "http")

	players := make([]*arenaPlayer, 6)
	for i := range players {
		var v struct{ ID, Token string }
		if err := p.apiCall(ctx, "POST", "/api/v1/players", "", `{"name":"Arena"}`, 201, &v); err != nil {
			t.Fatal(err)
		}
		players[i] = &arenaPlayer{name: fmt.Sprintf("a%d", i+1), id: v.ID, token: v.Token, paired: make(chan pairedAt, 16)}
	}
	var av arena.View
	if err := p.apiCall(ctx, "POST", "/api/v1/arenas", players[0].token, `{"minutes":10,"draw":1,"redeal":"unlimited","startsIn":0}`, 201, &av); err != nil {
		t.Fatal(err)
	}
	for _, a := range players[1:] {
		if err := p.apiCall(ctx, "POST", "/api/v1/arenas/"+av.ID+"/join", a.token, "", 200, nil); err != nil {
			t.Fatal(err)
		}
	}

	follow, stopFollow := context.WithCancel(ctx)
	defer stopFollow()
	var wg sync.WaitGroup
	errs := make(chan error, 2*len(players))
	for _, a := range players {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if err := a.follow(follow, wsBase, av.ID); err != nil {
				errs <- err
			}
		}()
		go func() {
			defer wg.Done()
			if err := a.play(ctx, follow, p, wsBase); err != nil {
				errs <- err
				cancel()
			}
		}()
	}
	// waitAll waits until every player has f, or the time runs out.
	waitAll := func(what string, f func(a *arenaPlayer) bool) {
		for {
			all := true
			for _, a := range players {
				all = all && f(a)
			}
			if all {
				return
			}
			select {
			case <-ctx.Done():
				stopFollow()
				wg.Wait()
				close(errs)
				for err := range errs {
					t.Error(err)
				}
				t.Fatalf("%s: %v", what, ctx.Err())
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	tPlay := time.Now()
	waitAll("a first race each", func(a *arenaPlayer) bool { return a.racesSince(tPlay) > 0 })

	// Kill the arena's owner, as its lease says.
	leases, err := p.db.LiveLeases(ctx, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var owner string
	for _, l := range leases {
		if l.Game == arena.LeasePrefix+av.ID {
			owner = l.Node
		}
	}
	var killed *procNode
	for _, n := range c.nodes {
		if n.name == owner {
			killed = n
		}
	}
	if killed == nil {
		t.Fatalf("no live lease of arena %s names a node of the cluster (%q)", av.ID, owner)
	}
	killAt := time.Now()
	if _, err := killed.signal(syscall.SIGKILL, 10*time.Second); err != nil && !isSignalExit(err, syscall.SIGKILL) {
		t.Fatal(err)
	}
	t.Logf("arena %s: %s, its owner, killed %v after the start", av.ID, killed.name, killAt.Sub(tPlay).Round(time.Millisecond))

	// Pairing goes on: every player finishes a race paired after the
	// kill; then the sockets close and the races in play finish.
	waitAll("a race each after the kill", func(a *arenaPlayer) bool { return a.racesSince(killAt) > 0 })
	tPaired := time.Now()
	stopFollow()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	reconnects := 0
	for _, a := range players {
		if a.reconnects.Load() == 0 {
			t.Errorf("%s: its arena socket never reconnected, though the arena's owner died", a.name)
		}
		reconnects += int(a.reconnects.Load())
	}
	t.Logf("pairing again after the kill within %v; %d arena socket reconnects", tPaired.Sub(killAt).Round(time.Millisecond), reconnects)

	// The standings the front serves (the next owner's, once it scored
	// every race) equal their recomputation from the stored races.
	var races []arena.Race
	var view arena.View
	deadline := time.Now().Add(30 * time.Second)
	for {
		rs, err := p.db.ArenaRaces(ctx, av.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		races = races[:0]
		over := 0
		for _, r := range rs {
			races = append(races, arena.RaceOf(r))
			if races[len(races)-1].Counted {
				over++
			}
		}
		if err := p.apiCall(ctx, "GET", "/api/v1/arenas/"+av.ID, players[0].token, "", 200, &view); err != nil {
			t.Fatal(err)
		}
		counted := 0
		for _, row := range view.Standings {
			counted += row.Races
		}
		if counted == 2*over && view.RacesInPlay == len(races)-over {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the standings count %d races of players, %d in play; the store has %d races counted of %d", counted, view.RacesInPlay, over, len(races))
		}
		time.Sleep(200 * time.Millisecond)
	}
	if len(view.Standings) != len(players) {
		t.Errorf("%d rows in the standings, want %d", len(view.Standings), len(players))
	}
	for _, d := range arena.Diff(view.Standings, races) {
		t.Error(d)
	}
	after := 0
	for _, r := range races {
		if r.Created.After(killAt) && r.Over {
			after++
		}
	}
	if after < len(players)/2 {
		t.Errorf("%d races paired after the kill and over, want %d at least", after, len(players)/2)
	}

	// No player was ever seated in two races at once: per player, each
	// race's span (created to its last write) ends before the next starts.
	type span struct {
		id         string
		start, end time.Time
	}
	spans := map[string][]span{}
	for _, r := range races {
		g, err := p.db.Game(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		end := g.UpdatedAt
		if g.Status != "over" {
			end = time.Now().Add(time.Hour) // still in play
		}
		for _, pl := range r.Seats {
			spans[pl] = append(spans[pl], span{r.ID, g.CreatedAt, end})
		}
	}
	for pl, ss := range spans {
		slices.SortFunc(ss, func(a, b span) int { return a.start.Compare(b.start) })
		for i := 1; i < len(ss); i++ {
			if ss[i].start.Before(ss[i-1].end) {
				t.Errorf("player %s: race %s (from %v) began before race %s ended (%v)", pl, ss[i].id,
					ss[i].start.Format(time.StampMilli), ss[i-1].id, ss[i-1].end.Format(time.StampMilli))
			}
		}
	}
	t.Logf("arena %s: %d races, %d of them paired after the kill; %d acks; standings as recomputed", av.ID, len(races), after, p.acks.Load())
	if len(races) == 0 {
		t.Fatal(errors.New("no race"))
	}
}
