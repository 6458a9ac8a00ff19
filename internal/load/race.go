package load

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"dsol/internal/klondike"
	"dsol/internal/load/client"
)

// raceBody is the race every pair creates: draw 1, unlimited redeals and
// simultaneous turns, where a draw (or, on an empty stock, a recycle) is
// always legal.
const raceBody = `{"draw":1,"redeal":"unlimited","decks":"independent","turns":"simultaneous","public":false}`

// raceActionLimit is how many actions a seat sends in one race of race-play
// before the pair gives the race up, as a bound on a race that neither seat's
// simple policy can finish.
const raceActionLimit = 3000

// raceReport is the result of a race run (the JSON of --json).
type raceReport struct {
	URL           string  `json:"url"`
	Mode          string  `json:"mode"`
	Races         int     `json:"races"`   // pairs that finished the setup and played
	Clients       int     `json:"clients"` // their seats, one WebSocket each
	SetupSeconds  float64 `json:"setupSeconds"`
	WarmupSeconds float64 `json:"warmupSeconds"`
	Seconds       float64 `json:"seconds"` // the measured window
	// Acks are the actions acknowledged within the window: each one is
	// stored durably, by the server's contract.
	Acks          int           `json:"acks"`
	AcksPerSecond float64       `json:"acksPerSecond"`
	LatencyMs     latencyReport `json:"latencyMs"` // send to ack, of the window's acks
	// TotalAcks counts every ack of the run: setup, warm-up, window and the
	// actions in flight when the window closed.
	TotalAcks int `json:"totalAcks"`
	// RacesFinished are the races that ended within the window (race-play);
	// RacesLeft the races a pair gave up (its policy found nothing more to
	// do, or a connection failed) over the whole run.
	RacesFinished int `json:"racesFinished"`
	RacesLeft     int `json:"racesLeft"`
	Connects      int `json:"connects"`
	// Protocol is the socket protocol asked for; Frames the frames the
	// seats read and EventBytes the size of their event messages (whole
	// run; a frame of protocol 2 may hold several messages).
	Protocol   int            `json:"protocol"`
	Frames     int            `json:"frames"`
	EventBytes latencyReport  `json:"eventBytes"`
	Rejects    map[string]int `json:"rejects"` // rejected actions by code, whole run
	Errors     map[string]int `json:"errors"`  // other failures by code, whole run
	CPU        cpuReport      `json:"cpu"`

	// gameActs counts the acks of every race of the run by race id.
	gameActs map[string]int
}

// cpuReport is the server's CPU time over the window.
type cpuReport struct {
	Source  string  `json:"source"` // "proc" (--pid) or "metrics"
	PIDs    []int   `json:"pids,omitempty"`
	Seconds float64 `json:"seconds"`
	// PerPID is each process's share of Seconds, in the order of PIDs.
	PerPID       []float64 `json:"perPid,omitempty"`
	MicrosPerAck float64   `json:"microsPerAck"`
	Error        string    `json:"error,omitempty"` // why it could not be read
	// LoadSeconds is the load tool's own CPU time in the window (0 when
	// unknown): it runs beside the server on a machine of few cores.
	LoadSeconds float64 `json:"loadSeconds"`
}

// runRace sets up the pairs (players, a first race, connections), lets them
// play through the warm-up and the window, measures the window and gathers
// the figures.
func runRace(ctx context.Context, cfg config) (*raceReport, error) {
	hc := client.NewHTTPClient(2 * cfg.races)
	defer hc.CloseIdleConnections()
	meter := newCPUMeter(&cfg, hc)
	if _, err := meter.seconds(ctx); err != nil {
		return nil, fmt.Errorf("load: the server's CPU time: %w", err)
	}

	pairs := make([]*racePair, cfg.races)
	for i := range pairs {
		pairs[i] = newRacePair(&cfg, hc)
	}
	setupStart := time.Now()
	setupCtx, cancelSetup := context.WithTimeout(ctx, cfg.setup)
	team, ready := setUp(setupCtx, pairs)
	cancelSetup()
	rep := &raceReport{URL: cfg.base, Mode: cfg.mode, Protocol: cfg.protocol, SetupSeconds: time.Since(setupStart).Seconds(),
		Races: ready, Clients: 2 * ready,
		Rejects: map[string]int{}, Errors: map[string]int{}, gameActs: map[string]int{},
		CPU: cpuReport{Source: meter.source, PIDs: cfg.pids}}
	w := measure(ctx, &cfg, meter, team)

	var lat []time.Duration
	var sizes []float64
	for _, p := range pairs {
		p.gather(rep, w.t0, w.t1, &lat, &sizes)
	}
	rep.WarmupSeconds, rep.Seconds = w.warmup, w.t1.Sub(w.t0).Seconds()
	rep.Acks = len(lat)
	if rep.Seconds > 0 {
		rep.AcksPerSecond = float64(rep.Acks) / rep.Seconds
	}
	rep.LatencyMs = percentiles(lat)
	rep.EventBytes = summary(sizes)
	w.cpu(&rep.CPU, rep.Acks)
	if rep.Races == 0 {
		return rep, fmt.Errorf("load: no pair got through the setup within %v (errors: %s)", cfg.setup, client.ErrorList(rep.Errors))
	}
	return rep, nil
}

// writeText writes the report for people.
func (r *raceReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "dsol load: %s, %d races (%d clients), %s\n", r.Mode, r.Races, r.Clients, r.URL)
	fmt.Fprintf(w, "setup       %.1fs, warm-up %.1fs\n", r.SetupSeconds, r.WarmupSeconds)
	fmt.Fprintf(w, "window      %.1fs\n", r.Seconds)
	fmt.Fprintf(w, "acks        %d (%.0f/s), %d in the whole run\n", r.Acks, r.AcksPerSecond, r.TotalAcks)
	l := r.LatencyMs
	fmt.Fprintf(w, "ack ms      p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  mean %.2f\n", l.P50, l.P90, l.P99, l.Max, l.Mean)
	if r.Mode == "race-play" {
		fmt.Fprintf(w, "races       %d finished in the window, %d given up\n", r.RacesFinished, r.RacesLeft)
	}
	fmt.Fprintf(w, "connections %d, protocol %d, %d frames read\n", r.Connects, r.Protocol, r.Frames)
	e := r.EventBytes
	fmt.Fprintf(w, "event bytes p50 %.0f  p90 %.0f  p99 %.0f  max %.0f  mean %.0f\n", e.P50, e.P90, e.P99, e.Max, e.Mean)
	fmt.Fprintf(w, "rejects     %s\n", client.ErrorList(r.Rejects))
	fmt.Fprintf(w, "errors      %s\n", client.ErrorList(r.Errors))
	writeCPU(w, r.CPU)
}

// writeCPU writes the CPU lines of a report.
func writeCPU(w io.Writer, c cpuReport) {
	if c.Error != "" {
		fmt.Fprintf(w, "server cpu  unknown (%s)\n", c.Error)
	} else {
		src := c.Source
		if len(c.PIDs) > 0 {
			ids := make([]string, len(c.PIDs))
			for i, pid := range c.PIDs {
				ids[i] = strconv.Itoa(pid)
				if i < len(c.PerPID) {
					ids[i] += fmt.Sprintf(" %.2fs", c.PerPID[i])
				}
			}
			src = "pid " + strings.Join(ids, ", ")
		}
		fmt.Fprintf(w, "server cpu  %.2fs in the window (%s), %.1f µs per ack\n", c.Seconds, src, c.MicrosPerAck)
	}
	if c.LoadSeconds > 0 {
		fmt.Fprintf(w, "load cpu    %.2fs in the window (this tool)\n", c.LoadSeconds)
	}
}

// window is the measured window of a run: its bounds, the warm-up before
// it, and the server's and the tool's CPU time over it.
type window struct {
	t0, t1       time.Time
	warmup       float64 // seconds
	cpu0, cpu1   []float64
	err0, err1   error
	self0, self1 float64
	selfErr      error
}

// measure starts the ready players of team, lets them play through the
// warm-up and the window, stops them and waits for them (their actions in
// flight answered within drainTimeout), and returns the window.
func measure(ctx context.Context, cfg *config, meter *cpuMeter, team *team) window {
	var w window
	stop, cancelStop := context.WithCancel(ctx)
	defer cancelStop()
	runCtx, cancelRun := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelRun()
	team.play(stop, runCtx)

	warm := time.Now()
	client.Sleep(ctx, cfg.warmup)
	w.cpu0, w.err0 = meter.seconds(ctx)
	var err0, err1 error
	w.self0, err0 = client.ProcessCPUSeconds("self")
	w.t0 = time.Now()
	w.warmup = w.t0.Sub(warm).Seconds()
	client.Sleep(ctx, cfg.duration)
	w.t1 = time.Now()
	w.cpu1, w.err1 = meter.seconds(context.WithoutCancel(ctx))
	w.self1, err1 = client.ProcessCPUSeconds("self")
	w.selfErr = cmp.Or(err0, err1)
	cancelStop()
	drain := time.AfterFunc(drainTimeout, cancelRun)
	team.wait()
	drain.Stop()
	return w
}

// cpu fills in the server's CPU time over the window, per ack of acks,
// and the tool's.
func (w *window) cpu(c *cpuReport, acks int) {
	if w.selfErr == nil {
		c.LoadSeconds = w.self1 - w.self0
	}
	switch {
	case w.err0 != nil:
		c.Error = w.err0.Error()
	case w.err1 != nil:
		c.Error = w.err1.Error()
	default:
		for i := range w.cpu1 {
			d := w.cpu1[i] - w.cpu0[i]
			c.Seconds += d
			if len(c.PIDs) > 0 {
				c.PerPID = append(c.PerPID, d)
			}
		}
		if acks > 0 {
			c.MicrosPerAck = c.Seconds * 1e6 / float64(acks)
		}
	}
}

// racePair is two players racing each other, one race at a time, each seat
// on its own connection. Its figures are read after it stops.
type racePair struct {
	cfg   *config
	hc    *http.Client
	seats [2]*raceSeat
	race  *raceGame // the current race, nil between races

	ended  []time.Time // when races ended
	left   int
	errors map[string]int
}

// raceGame is one race of a pair, shared by its two seats.
type raceGame struct {
	id string
	// ctx ends when the race is given up or the run stops: it bounds the
	// seats' waits for news, never an action in flight.
	ctx    context.Context
	cancel context.CancelFunc
	over   atomic.Bool    // a seat saw the race end
	leave  atomic.Bool    // a seat gave the race up: the other stops too
	long   atomic.Bool    // the race reached raceActions: the pair starts another
	stuck  [2]atomic.Bool // race-play: the seat's policy has nothing useful to do
}

// raceActions is the most actions the tool plays in one race before the
// pair starts another: half of what a game may have (klondike.MaxActions),
// so that a long run never meets the limit.
const raceActions = klondike.MaxActions / 2

// giveUp makes both seats leave the race.
func (g *raceGame) giveUp() {
	g.leave.Store(true)
	g.cancel()
}

// newRacePair makes a pair with no players yet (see setup).
func newRacePair(cfg *config, hc *http.Client) *racePair {
	p := &racePair{cfg: cfg, hc: hc, errors: map[string]int{}}
	for i := range p.seats {
		p.seats[i] = &raceSeat{cfg: cfg, hc: hc, seat: i + 1, acks: map[string]int{},
			rejects: map[string]int{}, errors: map[string]int{}}
	}
	return p
}

// setup creates the two players and the first race, reporting whether the
// pair is ready to play.
func (p *racePair) setup(ctx context.Context) bool {
	for _, s := range p.seats {
		token, ok := client.SignUp(ctx, p.hc, p.cfg.base, p.errors)
		if !ok {
			return false
		}
		s.token = token
	}
	return client.Persist(ctx, p.errors, p.newRace)
}

// newRace creates a race with seat 1, joins it with seat 2 and opens both
// seats' connections.
func (p *racePair) newRace(ctx context.Context) error {
	var created struct{ ID, Invite string }
	if err := client.PostJSON(ctx, p.hc, p.cfg.base+"/api/v1/races", p.seats[0].token, []byte(raceBody), &created); err != nil {
		return err
	}
	join, _ := json.Marshal(map[string]string{"invite": created.Invite})
	if err := client.PostJSON(ctx, p.hc, p.cfg.base+"/api/v1/races/"+created.ID+"/join", p.seats[1].token, join, nil); err != nil {
		return err
	}
	g := &raceGame{id: created.ID} // its ctx is set when play starts it
	for _, s := range p.seats {
		if err := s.dial(ctx, g); err != nil {
			p.dropRace()
			return err
		}
	}
	p.race = g
	return nil
}

// dropRace closes the seats' connections and forgets the race.
func (p *racePair) dropRace() {
	for _, s := range p.seats {
		s.hangUp()
	}
	p.race = nil
}

// play runs races until stop ends: both seats play the current race until
// it ends, a seat gives it up or stop ends; then the pair starts the next.
func (p *racePair) play(stop, ctx context.Context) {
	defer p.dropRace()
	for stop.Err() == nil {
		if p.race == nil {
			if err := p.newRace(stop); err != nil && !client.Retry(stop, p.errors, err) {
				return
			}
			continue
		}
		g := p.race
		g.ctx, g.cancel = context.WithCancel(stop)
		var wg sync.WaitGroup
		for _, s := range p.seats {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.play(stop, ctx, g)
			}()
		}
		wg.Wait()
		g.cancel()
		switch {
		case g.over.Load():
			p.ended = append(p.ended, time.Now())
		case g.leave.Load() && !g.long.Load() && stop.Err() == nil:
			p.left++
		}
		p.dropRace()
	}
}

// gather adds the pair's figures to the report: the acks within [t0, t1]
// to lat, every ack to the totals.
func (p *racePair) gather(rep *raceReport, t0, t1 time.Time, lat *[]time.Duration, sizes *[]float64) {
	for _, t := range p.ended {
		if !t.Before(t0) && !t.After(t1) {
			rep.RacesFinished++
		}
	}
	rep.RacesLeft += p.left
	addCounts(rep.Errors, p.errors)
	for _, s := range p.seats {
		for _, a := range s.samples {
			if !a.at.Before(t0) && !a.at.After(t1) {
				*lat = append(*lat, a.latency)
			}
		}
		rep.TotalAcks += len(s.samples)
		rep.Connects += s.connects
		rep.Frames += s.frames
		for _, n := range s.eventBytes {
			*sizes = append(*sizes, float64(n))
		}
		addCounts(rep.gameActs, s.acks)
		addCounts(rep.Rejects, s.rejects)
		addCounts(rep.Errors, s.errors)
	}
}

// addCounts adds the counts of from to to.
func addCounts(to, from map[string]int) {
	for k, n := range from {
		to[k] += n
	}
}
