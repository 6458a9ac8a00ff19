package load

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/load/client"
)

// arenaPlayer is a player of the arena run: its arena socket, read by a
// goroutine of its own, and the seat it plays its races with.
type arenaPlayer struct {
	cfg       *config
	hc        *http.Client
	arena     string
	id, token string
	seat      *raceSeat
	paired    chan pairing // the arena socket's "paired" messages

	// ends are the player's races that ended, in order, with when it saw
	// each end; waits its pairing waits.
	ends  []raceEnd
	waits []time.Duration

	mu sync.Mutex // guards what the arena socket's reader writes
	// base is the races of the player's row in the first push it read (-1
	// before), counted those of the newest; shown[k] is when a push first
	// counted the player's race k+1 after base.
	base, counted int
	shown         []time.Time
	messages      int
	connects      int
	paused        int
	errors        map[string]int
}

// pairing is a "paired" message and when it came.
type pairing struct {
	race string
	at   time.Time
}

// raceEnd is a race of the player's that ended and when the player saw it.
type raceEnd struct {
	race string
	at   time.Time
}

func newArenaPlayer(cfg *config, hc *http.Client) *arenaPlayer {
	return &arenaPlayer{cfg: cfg, hc: hc, base: -1, errors: map[string]int{}, paired: make(chan pairing, 16),
		seat: &raceSeat{cfg: cfg, hc: hc, acks: map[string]int{}, rejects: map[string]int{}, errors: map[string]int{}}}
}

// create signs the player up and creates the arena, which it joins.
func (p *arenaPlayer) create(ctx context.Context) bool {
	if !p.signUp(ctx) {
		return false
	}
	var v struct{ ID string }
	ok := p.persist(ctx, func(ctx context.Context) error {
		return client.PostJSON(ctx, p.hc, p.cfg.base+"/api/v1/arenas", p.token, arenaBody(arenaMinutes(p.cfg)), &v)
	})
	p.arena = v.ID
	return ok
}

func (p *arenaPlayer) signUp(ctx context.Context) bool {
	if p.token != "" {
		return true
	}
	var ok bool
	p.id, p.token, ok = client.NewPlayer(ctx, p.hc, p.cfg.base, p.errors)
	p.seat.token = p.token
	return ok
}

// setup signs the player up and joins it to the arena (the creator has
// joined already).
func (p *arenaPlayer) setup(ctx context.Context) bool {
	if p.token != "" {
		return true
	}
	return p.signUp(ctx) && p.join(ctx)
}

// join joins the player to the arena, or brings it back from a pause.
func (p *arenaPlayer) join(ctx context.Context) bool {
	return p.persist(ctx, func(ctx context.Context) error {
		return client.PostJSON(ctx, p.hc, p.cfg.base+"/api/v1/arenas/"+p.arena+"/join", p.token, nil, nil)
	})
}

// persist is client.Persist with the player's error counts, which the
// arena socket's reader shares.
func (p *arenaPlayer) persist(ctx context.Context, f func(context.Context) error) bool {
	errs := map[string]int{}
	ok := client.Persist(ctx, errs, f)
	p.mu.Lock()
	addCounts(p.errors, errs)
	p.mu.Unlock()
	return ok
}

// play opens the arena socket and plays every race the player is paired
// in until stop ends.
func (p *arenaPlayer) play(stop, ctx context.Context) {
	var conn *websocket.Conn
	if !client.Persist(stop, p.seat.errors, func(ctx context.Context) error {
		c, err := client.DialArena(ctx, p.hc, p.cfg.base, p.arena, p.token)
		conn = c
		return err
	}) {
		return
	}
	free := time.Now() // joined: the socket is open
	readCtx, stopReading := context.WithCancel(context.WithoutCancel(stop))
	var reader sync.WaitGroup
	reader.Add(1)
	go func() {
		defer reader.Done()
		p.read(readCtx, stop, conn)
	}()
	defer func() {
		p.awaitPushes()
		stopReading()
		reader.Wait()
	}()

	done := map[string]bool{}
	for {
		var m pairing
		select {
		case <-stop.Done():
			return
		case m = <-p.paired:
		}
		if done[m.race] {
			continue // told again on a reconnect
		}
		done[m.race] = true
		p.waits = append(p.waits, max(0, m.at.Sub(free)))
		over := p.race(stop, ctx, m.race)
		if !over {
			return // the run is over
		}
		free = time.Now()
		p.ends = append(p.ends, raceEnd{m.race, free})
	}
}

// pushLinger is how long a player that stopped reads its arena socket on,
// for the pushes of its last races.
const pushLinger = 2 * time.Second

// awaitPushes waits, pushLinger at most, for a push to show each race of
// the player that ended.
func (p *arenaPlayer) awaitPushes() {
	for t0 := time.Now(); time.Since(t0) < pushLinger; time.Sleep(10 * time.Millisecond) {
		p.mu.Lock()
		shown := len(p.ends) == 0 || len(p.shown) >= len(p.ends) && !p.shown[len(p.ends)-1].IsZero()
		p.mu.Unlock()
		if shown {
			return
		}
	}
}

// race plays one race to its end, reporting whether it ended (false: the
// run stopped first). A race the player could not play on (its socket
// failed) is resigned over REST.
func (p *arenaPlayer) race(stop, ctx context.Context, id string) bool {
	s := p.seat
	for stop.Err() == nil {
		g := &raceGame{id: id}
		g.ctx, g.cancel = context.WithCancel(stop)
		s.seat = 0
		err := s.dial(stop, g)
		if err == nil {
			s.play(stop, ctx, g)
		} else if stop.Err() == nil {
			s.errors[client.CodeOf(err)]++
		}
		g.cancel()
		s.hangUp()
		switch {
		case g.over.Load():
			return true
		case stop.Err() != nil:
			return false
		}
		// The socket failed: end the race, so that the player is paired
		// again.
		err = client.PostJSON(stop, p.hc, p.cfg.base+"/api/v1/games/"+id+"/actions", p.token, resignFrame, nil)
		if err == nil || client.CodeOf(err) == "game_over" {
			return true
		}
		if !client.Retry(stop, s.errors, err) {
			return false
		}
	}
	return false
}

// read reads the arena socket until ctx ends: it notes what the pushes
// show of the player's row, hands the "paired" messages to play, brings the
// player back after an idle pause, and connects again when the socket
// fails while the run goes on (stop).
func (p *arenaPlayer) read(ctx, stop context.Context, conn *websocket.Conn) {
	defer func() {
		if conn != nil {
			conn.Close(websocket.StatusNormalClosure, "run over")
		}
	}()
	p.mu.Lock()
	p.connects++
	p.mu.Unlock()
	var buf bytes.Buffer
	for {
		_, r, err := conn.Reader(ctx)
		if err == nil {
			buf.Reset()
			_, err = buf.ReadFrom(r)
		}
		if err != nil {
			if ctx.Err() != nil || stop.Err() != nil {
				return
			}
			p.count(client.WSError(ctx, err))
			conn.CloseNow()
			conn = nil
			if !p.persist(stop, func(c context.Context) error {
				var err error
				conn, err = client.DialArena(c, p.hc, p.cfg.base, p.arena, p.token)
				return err
			}) {
				return
			}
			p.mu.Lock()
			p.connects++
			p.mu.Unlock()
			continue
		}
		p.message(ctx, buf.Bytes())
	}
}

// arenaPrefix starts an arena push as the server writes it.
var arenaPrefix = []byte(`{"type":"arena",`)

// message handles one message of the arena socket.
func (p *arenaPlayer) message(ctx context.Context, data []byte) {
	now := time.Now()
	p.mu.Lock()
	p.messages++
	p.mu.Unlock()
	if bytes.HasPrefix(data, arenaPrefix) {
		if n, ok := p.ownRaces(data); ok {
			p.showRaces(n, now)
		} else {
			p.count(&client.Error{Code: "bad_arena", Message: "an arena push without the player's row"})
		}
		return
	}
	var m struct{ Type, Race string }
	if err := json.Unmarshal(data, &m); err != nil {
		p.count(&client.Error{Code: "bad_frame", Message: err.Error()})
		return
	}
	switch m.Type {
	case "paired":
		select {
		case p.paired <- pairing{m.Race, now}:
		case <-ctx.Done():
		}
	case "paused":
		p.mu.Lock()
		p.paused++
		p.mu.Unlock()
		p.join(ctx)
	}
}

// ownRaces reads the races of the player's own row of an arena push: found
// by its player id, its "races" the first after it (the order the server
// writes a row in), else by decoding the push.
func (p *arenaPlayer) ownRaces(data []byte) (int, bool) {
	needle := []byte(`{"id":"` + p.id + `"`)
	if i := bytes.Index(data, needle); i >= 0 {
		rest := data[i+len(needle):]
		if j := bytes.Index(rest, []byte(`"races":`)); j >= 0 {
			rest = rest[j+len(`"races":`):]
			k := 0
			for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
				k++
			}
			if n, err := strconv.Atoi(string(rest[:k])); err == nil {
				return n, true
			}
		}
	}
	var m struct {
		Arena struct {
			Standings []struct {
				Player struct{ ID string }
				Races  int
			}
		}
	}
	if json.Unmarshal(data, &m) != nil {
		return 0, false
	}
	for _, r := range m.Arena.Standings {
		if r.Player.ID == p.id {
			return r.Races, true
		}
	}
	return 0, false
}

// showRaces notes that a push at now counted n races of the player's.
func (p *arenaPlayer) showRaces(n int, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.base < 0 {
		p.base, p.counted = n, n
		return
	}
	for ; p.counted < n; p.counted++ {
		k := p.counted - p.base
		for len(p.shown) <= k {
			p.shown = append(p.shown, time.Time{})
		}
		if p.shown[k].IsZero() {
			p.shown[k] = now
		}
	}
}

// count counts an error of the arena socket.
func (p *arenaPlayer) count(err error) {
	if err == client.ErrCtxDone {
		return
	}
	p.mu.Lock()
	p.errors[client.CodeOf(err)]++
	p.mu.Unlock()
}

// gather adds the player's figures to the report: the acks within [t0, t1]
// to lat, its pairing waits to waits, its push latencies to pushes and its
// races' ends to ended (the first end seen of each).
func (p *arenaPlayer) gather(rep *arenaReport, t0, t1 time.Time, lat, waits, pushes *[]time.Duration, ended map[string]time.Time) {
	s := p.seat
	for _, a := range s.samples {
		if !a.at.Before(t0) && !a.at.After(t1) {
			*lat = append(*lat, a.latency)
		}
	}
	rep.TotalAcks += len(s.samples)
	rep.Connects += s.connects
	rep.Frames += s.frames
	addCounts(rep.gameActs, s.acks)
	addCounts(rep.Rejects, s.rejects)
	addCounts(rep.Errors, s.errors)
	*waits = append(*waits, p.waits...)
	p.mu.Lock()
	defer p.mu.Unlock()
	addCounts(rep.Errors, p.errors)
	rep.ArenaMessages += p.messages
	rep.ArenaConnects += p.connects
	rep.Paused += p.paused
	for k, e := range p.ends {
		if at, ok := ended[e.race]; !ok || e.at.Before(at) {
			ended[e.race] = e.at
		}
		if k >= len(p.shown) || p.shown[k].IsZero() {
			rep.PushesMissing++
			continue
		}
		*pushes = append(*pushes, max(0, p.shown[k].Sub(e.at)))
	}
}
