package load

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"

	k "dsol/internal/klondike"
	"dsol/internal/load/client"
)

// raceSeat is one seat of a pair: its player and, during a race, its
// connection. It plays in a closed loop: one action in flight at a time.
type raceSeat struct {
	cfg    *config
	hc     *http.Client
	seat   int // 1 or 2; arena mode: 0 until dial reads it from the view
	token  string
	conn   *websocket.Conn
	nextID int

	// What the seat knows of its race: the seq of its last ack, and the
	// newest frame carrying a view (a state or an event), kept unparsed
	// until the seat needs it.
	acked    int64
	viewSeq  int64
	viewData []byte
	// Protocol 2: the deltas after viewData (or after base, the view they
	// were last folded into), folded only when the seat needs the view.
	deltas [][]byte
	base   map[string]any

	// Frames and the bytes of each event message received.
	frames     int
	eventBytes []int
	// buf holds the frame being read and msgs its messages: both are
	// reused, so what is kept of a frame is copied.
	buf  bytes.Buffer
	msgs [][]byte

	// race mode: the seat's stock and waste counts, kept in step with its
	// own draws and recycles (nothing else changes them).
	stock, waste int

	// race-play
	fallback   bool        // after a reject: a draw or a recycle next
	passKey    progressKey // the position when something last changed
	idlePasses int         // recycles since then
	raceActs   int         // actions sent (arena mode: acknowledged) in the current race

	samples  []ackSample
	acks     map[string]int // acks by race id
	rejects  map[string]int
	errors   map[string]int
	connects int
}

// ackSample is one acknowledged action: when its ack came and how long after
// the action was sent.
type ackSample struct {
	at      time.Time
	latency time.Duration
}

// drawFrame and recycleFrame are the race mode's actions, as they are
// sent.
var (
	drawFrame    = []byte(`{"type":"draw"}`)
	recycleFrame = []byte(`{"type":"recycle"}`)
	// resignFrame ends an arena mode's race: its seat has played
	// --race-actions.
	resignFrame = []byte(`{"type":"resign"}`)
)

// drawsOnly reports whether the seats play only draws and recycles (the
// race and arena modes), keeping their stock and waste counts themselves.
func (c *config) drawsOnly() bool { return c.mode == "race" || c.mode == "arena" }

// dial opens the seat's connection to race g and reads its first state.
func (s *raceSeat) dial(ctx context.Context, g *raceGame) error {
	conn, err := client.DialGame(ctx, s.hc, s.cfg.base, g.id, s.token, s.cfg.protocol >= 2)
	if err != nil {
		return err
	}
	s.conn = conn
	s.connects++
	s.acked, s.viewSeq, s.viewData, s.deltas, s.base = 0, -1, nil, nil, nil
	s.fallback, s.passKey, s.idlePasses, s.raceActs = false, progressKey{}, 0, 0
	for s.viewSeq < 0 {
		if _, err := s.read(ctx, g); err != nil {
			return err
		}
	}
	v, err := s.view(ctx, g)
	if err != nil {
		return err
	}
	if s.seat == 0 { // an arena's race: the view says which seat is ours
		if v.You == nil {
			return &client.Error{Code: "bad_view", Message: "a race view without the player's seat"}
		}
		s.seat = *v.You
	}
	sv, err := v.seatOf(s.seat)
	if err != nil {
		return err
	}
	s.stock, s.waste = sv.Stock, len(sv.Waste)
	if v.Status == "over" {
		g.over.Store(true)
	}
	return nil
}

// hangUp closes the seat's connection.
func (s *raceSeat) hangUp() {
	if s.conn != nil {
		s.conn.Close(websocket.StatusNormalClosure, "next race")
		s.conn = nil
	}
}

// act sends one action and waits for its ack or reject within ctx.
func (s *raceSeat) act(ctx context.Context, g *raceGame, action []byte) (*answer, error) {
	s.nextID++
	id := "R" + strconv.Itoa(s.nextID)
	if err := s.conn.Write(ctx, websocket.MessageText, client.ActionFrame(id, action)); err != nil {
		return nil, client.WSError(ctx, err)
	}
	for {
		a, err := s.read(ctx, g)
		if err != nil {
			return nil, err
		}
		if a != nil && (a.ID == id || a.Type == "reject" && a.ID == "") {
			return a, nil
		}
	}
}

// play plays race g until it ends, a seat gives it up or stop ends; the
// action in flight then may take until ctx ends to be answered.
func (s *raceSeat) play(stop, ctx context.Context, g *raceGame) {
	for stop.Err() == nil && !g.over.Load() && !g.leave.Load() {
		var action []byte
		switch {
		case s.cfg.raceActions > 0 && s.raceActs >= s.cfg.raceActions:
			action = resignFrame
		case s.cfg.drawsOnly():
			action = s.drawOrRecycle()
		default:
			a, ok, err := s.choose(g)
			if err != nil {
				s.fail(g, err)
				return
			}
			if g.over.Load() || g.leave.Load() {
				return
			}
			if !ok {
				// Nothing to do: wait for the opponent to change something.
				if _, err := s.read(g.ctx, g); err != nil {
					s.fail(g, err)
					return
				}
				continue
			}
			action = a.AppendJSON(nil)
		}
		t0 := time.Now()
		ans, err := s.act(ctx, g, action)
		if err != nil {
			s.fail(g, err)
			return
		}
		if ans.Type == "ack" {
			s.samples = append(s.samples, ackSample{at: time.Now(), latency: time.Since(t0)})
			s.acks[g.id]++
			s.acked = max(s.acked, ans.Seq)
			if bytes.Equal(action, resignFrame) {
				g.over.Store(true)
				return
			}
			if ans.Seq >= raceActions {
				g.long.Store(true)
				g.giveUp()
				return
			}
			if s.cfg.drawsOnly() {
				s.raceActs++
				s.played(action)
			}
			continue
		}
		code := ans.Error.Code
		s.rejects[code]++
		switch {
		case code == "game_over":
			g.over.Store(true)
			return
		case code == "rate_limited":
			client.Sleep(stop, client.RateLimitPause)
		case s.cfg.drawsOnly():
			if err := s.resync(g); err != nil {
				s.fail(g, err)
				return
			}
		default:
			s.fallback = true
		}
	}
}

// fail counts an error that ends the seat's race, unless the run is over,
// and makes the pair give the race up.
func (s *raceSeat) fail(g *raceGame, err error) {
	if err != client.ErrCtxDone {
		s.errors[client.CodeOf(err)]++
	}
	g.giveUp()
}

// drawOrRecycle is the race mode's action: a draw while the stock has
// cards, else a recycle.
func (s *raceSeat) drawOrRecycle() []byte {
	if s.stock > 0 || s.waste == 0 {
		return drawFrame
	}
	return recycleFrame
}

// played keeps the race mode's counts in step with an acknowledged action
// (draw 1).
func (s *raceSeat) played(action []byte) {
	if bytes.Equal(action, drawFrame) {
		s.stock--
		s.waste++
	} else {
		s.stock, s.waste = s.waste, 0
	}
}

// resync reads the seat's counts again from its view, which it asks of
// the server over HTTP (the race mode folds no deltas): after the seat's
// last ack, so at least as new as what the seat has done.
func (s *raceSeat) resync(g *raceGame) error {
	var v playView
	if err := client.GetJSON(g.ctx, s.hc, s.cfg.base+"/api/v1/games/"+g.id, s.token, &v); err != nil {
		return err
	}
	sv, err := v.seatOf(s.seat)
	if err != nil {
		return err
	}
	s.stock, s.waste = sv.Stock, len(sv.Waste)
	return nil
}

// choose picks the race-play action of the seat from its newest view: a
// foundation play, a run that turns a card over, the waste card to a column,
// else a draw or a recycle (only the last two right after a reject, whose
// cause the view may not show yet). It reports false when it has nothing to
// do. A seat that goes through its stock without anything changing on the
// table counts as stuck, and when both seats are stuck (or a seat reaches
// raceActionLimit) the pair gives the race up.
func (s *raceSeat) choose(g *raceGame) (k.Action, bool, error) {
	v, err := s.view(g.ctx, g)
	if err != nil {
		return k.Action{}, false, err
	}
	if v.Status == "over" {
		g.over.Store(true)
		return k.Action{}, false, nil
	}
	b, f, err := v.board(s.seat)
	if err != nil {
		return k.Action{}, false, err
	}
	if key := v.progress(); key != s.passKey {
		s.passKey, s.idlePasses = key, 0
		g.stuck[s.seat-1].Store(false)
	}
	var a k.Action
	ok := false
	if s.fallback {
		s.fallback = false
		a, ok = stockAction(&b)
	} else {
		a, ok = choosePlay(&b, &f)
	}
	if ok {
		s.raceActs++
		if a.Type == k.Recycle {
			s.idlePasses++
		}
	}
	if !ok || s.idlePasses >= 2 {
		g.stuck[s.seat-1].Store(true)
	}
	if g.stuck[0].Load() && g.stuck[1].Load() || s.raceActs > raceActionLimit {
		g.giveUp()
		return k.Action{}, false, nil
	}
	return a, ok, nil
}
