package load

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/load/client"
	"dsol/internal/solo"
)

// soloReport is the result of a load run (the JSON of --json).
type soloReport struct {
	URL              string         `json:"url"`
	Transport        string         `json:"transport"`
	Clients          int            `json:"clients"` // clients that finished the setup and played
	Draw             int            `json:"draw"`
	Think            string         `json:"think"`
	SetupSeconds     float64        `json:"setupSeconds"`
	Seconds          float64        `json:"seconds"` // the measured run, until the last answer
	Actions          int            `json:"actions"` // acknowledged actions
	ActionsPerSecond float64        `json:"actionsPerSecond"`
	Games            int            `json:"games"` // games created, the first ones included
	Won              int            `json:"won"`
	Connects         int            `json:"connects"` // WebSocket connections opened
	LatencyMs        latencyReport  `json:"latencyMs"`
	RateLimited      int            `json:"rateLimited"`
	Errors           map[string]int `json:"errors"` // by error code, rate_limited included
}

// runSolo sets up the clients (players, first games, connections), then lets
// them all play for the duration and gathers their figures.
func runSolo(ctx context.Context, cfg config) (*soloReport, error) {
	hc := client.NewHTTPClient(cfg.clients)
	defer hc.CloseIdleConnections()

	clients := make([]*soloClient, cfg.clients)
	for i := range clients {
		clients[i] = &soloClient{
			cfg:    &cfg,
			hc:     hc,
			rng:    rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano()))),
			errors: map[string]int{},
		}
	}

	setupStart := time.Now()
	setupCtx, cancelSetup := context.WithTimeout(ctx, cfg.setup)
	team, ready := setUp(setupCtx, clients)
	cancelSetup()
	setupTime := time.Since(setupStart)

	rep := &soloReport{
		URL: cfg.base, Transport: cfg.transport, Draw: cfg.draw, Think: cfg.think.String(),
		SetupSeconds: setupTime.Seconds(), Errors: map[string]int{}, Clients: ready,
	}
	stop, cancelStop := context.WithTimeout(ctx, cfg.duration)
	defer cancelStop()
	runCtx, cancelRun := context.WithTimeout(ctx, cfg.duration+drainTimeout)
	defer cancelRun()
	begin := time.Now()
	team.play(stop, runCtx)
	team.wait()
	elapsed := time.Since(begin)
	if rep.Clients == 0 {
		elapsed = 0
	}

	var lat []time.Duration
	for _, c := range clients {
		rep.Actions += c.actions
		rep.Games += c.games
		rep.Won += c.won
		rep.Connects += c.connects
		lat = append(lat, c.latencies...)
		for code, n := range c.errors {
			rep.Errors[code] += n
		}
	}
	rep.RateLimited = rep.Errors["rate_limited"]
	rep.Seconds = elapsed.Seconds()
	if elapsed > 0 {
		rep.ActionsPerSecond = float64(rep.Actions) / elapsed.Seconds()
	}
	rep.LatencyMs = percentiles(lat)
	if rep.Clients == 0 {
		return rep, fmt.Errorf("load: no client got through the setup within %v (errors: %s)", cfg.setup, client.ErrorList(rep.Errors))
	}
	return rep, nil
}

// WriteText writes the report for people.
func (r *soloReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "dsol load: %s, %d clients, draw %d, think %s, %s\n", r.Transport, r.Clients, r.Draw, r.Think, r.URL)
	fmt.Fprintf(w, "setup       %.1fs\n", r.SetupSeconds)
	fmt.Fprintf(w, "run         %.1fs\n", r.Seconds)
	fmt.Fprintf(w, "actions     %d (%.0f/s)\n", r.Actions, r.ActionsPerSecond)
	fmt.Fprintf(w, "games       %d (%d won)\n", r.Games, r.Won)
	if r.Transport == "ws" {
		fmt.Fprintf(w, "connections %d\n", r.Connects)
	}
	l := r.LatencyMs
	fmt.Fprintf(w, "latency ms  p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  mean %.2f\n", l.P50, l.P90, l.P99, l.Max, l.Mean)
	fmt.Fprintf(w, "rate limited %d\n", r.RateLimited)
	fmt.Fprintf(w, "errors      %s\n", client.ErrorList(r.Errors))
}

// soloClient is one virtual player: its own player, one game at a time and,
// over WebSocket, one connection at a time. Its figures are read after it
// stops.
type soloClient struct {
	cfg   *config
	hc    *http.Client
	rng   *rand.Rand
	token string

	// the current game: its id, the local engine kept in step with the
	// server, and (WebSocket) its connection
	gameID      string
	game        *solo.Game
	gameActions int
	progressed  bool // a foundation play or a card turned since the last recycle
	conn        *websocket.Conn
	nextID      int

	actions   int
	games     int
	won       int
	connects  int
	latencies []time.Duration
	errors    map[string]int
}

// setup creates the player and the first game, reporting whether the
// client is ready to play.
func (c *soloClient) setup(ctx context.Context) bool {
	token, ok := client.SignUp(ctx, c.hc, c.cfg.base, c.errors)
	if !ok {
		return false
	}
	c.token = token
	return client.Persist(ctx, c.errors, c.newGame)
}

// newGame drops the current game and creates the next one with a random
// deal, opening its WebSocket when the transport is ws.
func (c *soloClient) newGame(ctx context.Context) error {
	c.dropGame()
	code := cards.Code{Kind: cards.Solo, Draw: c.cfg.draw, Deal: c.rng.Uint64N(cards.DealCount)}
	g, err := solo.New(code)
	if err != nil {
		return err
	}
	var view struct{ ID string }
	if err := c.post(ctx, "/api/v1/games", []byte(`{"code":"`+code.String()+`"}`), &view); err != nil {
		return err
	}
	c.games++
	c.gameID, c.game, c.gameActions, c.progressed = view.ID, g, 0, false
	if c.cfg.transport == "ws" {
		if err := c.dial(ctx); err != nil {
			c.dropGame()
			return err
		}
	}
	return nil
}

// dropGame forgets the current game and closes its WebSocket.
func (c *soloClient) dropGame() {
	if c.conn != nil {
		c.conn.Close(websocket.StatusNormalClosure, "next game")
		c.conn = nil
	}
	c.gameID, c.game = "", nil
}

// play sends actions until stop ends, letting the last one finish within
// ctx.
func (c *soloClient) play(stop, ctx context.Context) {
	defer c.dropGame()
	for stop.Err() == nil {
		if c.game == nil {
			if err := c.newGame(stop); err != nil && !client.Retry(stop, c.errors, err) {
				return
			}
			continue
		}
		if c.game.Status() == solo.Won {
			c.won++
			c.game = nil
			continue
		}
		if c.gameActions >= c.maxActions() {
			c.game = nil
			continue
		}
		a, ok := c.choose()
		if !ok {
			c.game = nil // nothing useful left to do
			continue
		}
		if !c.send(stop, ctx, a) {
			continue
		}
		if c.cfg.think > 0 {
			client.Sleep(stop, c.cfg.think)
		}
	}
}

// send sends one action (already applied to the local game) until the
// server accepts it, pausing while rate limited (until stop ends). It
// reports whether the action was accepted; on any other answer the game is
// dropped, since the local engine no longer matches the server.
func (c *soloClient) send(stop, ctx context.Context, a k.Action) bool {
	c.nextID++
	id := "L" + strconv.Itoa(c.nextID)
	body := a.AppendJSON(nil)
	for {
		t0 := time.Now()
		err := c.act(ctx, id, body)
		if ctx.Err() != nil {
			return false // cut short by the end of the run: not counted
		}
		if err == nil {
			c.latencies = append(c.latencies, time.Since(t0))
			c.actions++
			c.gameActions++
			return true
		}
		code := client.CodeOf(err)
		c.errors[code]++
		if code == "rate_limited" && client.Sleep(stop, client.RateLimitPause) {
			continue
		}
		c.game = nil
		return false
	}
}

// act sends one action body over the client's transport and waits for its
// ack or response.
func (c *soloClient) act(ctx context.Context, id string, action []byte) error {
	if c.cfg.transport == "rest" {
		body := make([]byte, 0, len(action)+16)
		body = append(append(append(body, `{"action":`...), action...), '}')
		return c.post(ctx, "/api/v1/games/"+c.gameID+"/actions", body, nil)
	}
	if err := c.conn.Write(ctx, websocket.MessageText, client.ActionFrame(id, action)); err != nil {
		return client.WSError(ctx, err)
	}
	for {
		_, data, err := c.conn.Read(ctx)
		if err != nil {
			return client.WSError(ctx, err)
		}
		if bytes.HasPrefix(data, []byte(`{"type":"event"`)) {
			continue // every action's event comes back too: skip it unparsed
		}
		var m struct {
			Type  string `json:"type"`
			ID    string `json:"id"`
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			return &client.Error{Code: "bad_frame", Message: err.Error()}
		}
		switch {
		case m.Type == "ack" && m.ID == id:
			return nil
		case m.Type == "reject" && (m.ID == id || m.ID == ""):
			return &client.Error{Code: m.Error.Code, Message: m.Error.Message}
		}
	}
}

// dial opens the WebSocket of the current game and reads its first state.
func (c *soloClient) dial(ctx context.Context) error {
	conn, err := client.DialGame(ctx, c.hc, c.cfg.base, c.gameID, c.token, false)
	if err != nil {
		return err
	}
	c.connects++
	c.conn = conn
	_, data, err := conn.Read(ctx)
	if err != nil {
		return client.WSError(ctx, err)
	}
	if !bytes.HasPrefix(data, []byte(`{"type":"state"`)) {
		return &client.Error{Code: "bad_frame", Message: "the first frame is not the state"}
	}
	return nil
}

// post sends a JSON POST with the client's token (see postJSON).
func (c *soloClient) post(ctx context.Context, path string, body []byte, out any) error {
	return client.PostJSON(ctx, c.hc, c.cfg.base+path, c.token, body, out)
}

// choose picks the next action of the current game and applies it to the
// local engine: a foundation play, then a column move that turns a card
// over, then a waste card to a column, then a draw or a recycle. It reports
// false when the game is stuck for this player: a recycle would repeat a
// pass through the stock that changed nothing.
func (c *soloClient) choose() (k.Action, bool) {
	g := c.game
	b, f := g.Board(), g.Foundations()
	n := int(b.NCols)
	cols := c.rng.Perm(n)

	// Foundation plays from the waste and the columns.
	if top := b.WasteTop(); top != cards.None && f.FirstSlot(top) >= 0 {
		if a, ok := c.apply(k.NewMove(k.Waste, k.AnyF, 1)); ok {
			return a, true
		}
	}
	for _, i := range cols {
		if top := b.Cols[i].Top(); top != cards.None && b.Cols[i].N > b.Cols[i].Down && f.FirstSlot(top) >= 0 {
			if a, ok := c.apply(k.NewMove(k.ColPile(i), k.AnyF, 1)); ok {
				return a, true
			}
		}
	}
	// Whole face-up runs that uncover a face-down card.
	for _, i := range cols {
		col := &b.Cols[i]
		if col.Down == 0 || col.N == col.Down {
			continue
		}
		first := col.Cards[col.Down]
		for _, j := range cols {
			if j != i && b.Cols[j].Accepts(first) {
				if a, ok := c.apply(k.NewMove(k.ColPile(i), k.ColPile(j), int(col.N-col.Down))); ok {
					return a, true
				}
			}
		}
	}
	// The waste card to a column.
	if top := b.WasteTop(); top != cards.None {
		for _, j := range cols {
			if b.Cols[j].Accepts(top) {
				if a, ok := c.apply(k.NewMove(k.Waste, k.ColPile(j), 1)); ok {
					return a, true
				}
			}
		}
	}
	if b.NStock > 0 {
		return c.apply(k.Simple(k.Draw))
	}
	if b.NWaste > 0 && b.CanRecycle && c.progressed {
		c.progressed = false
		return c.apply(k.Simple(k.Recycle))
	}
	return k.Action{}, false
}

// apply plays a on the local game, returning the action as resolved (the
// server resolves it the same way); a foundation play or a turned card
// counts as progress.
func (c *soloClient) apply(a k.Action) (k.Action, bool) {
	out, err := c.game.Apply(a)
	if err != nil {
		return k.Action{}, false
	}
	if out.Flipped || out.Action.To.IsFoundation() || a.From == k.Waste && a.To.IsColumn() {
		c.progressed = true
	}
	return out.Action, true
}

// maxActions is the most actions the client plays in one game: --max-actions,
// and never more than half of what a game may have (klondike.MaxActions).
func (c *soloClient) maxActions() int {
	if m := c.cfg.maxActions; m > 0 {
		return min(m, k.MaxActions/2)
	}
	return k.MaxActions / 2
}
