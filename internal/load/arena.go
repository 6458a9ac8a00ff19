package load

import (
	"context"
	"fmt"
	"io"
	"time"

	"dsol/internal/load/client"
)

// maxArenaRun is how long an arena run may last, setup and drain included:
// an arena lasts at most 120 minutes, and the run's arena starts when its
// setup does.
const maxArenaRun = 118 * time.Minute

// arenaBody is the arena the run creates: draw 1 with unlimited redeals
// (a draw, or a recycle on an empty stock, is always legal), started at once,
// minutes long.
func arenaBody(minutes int) []byte {
	return fmt.Appendf(nil, `{"minutes":%d,"draw":1,"redeal":"unlimited","startsIn":0}`, minutes)
}

// arenaMinutes is how long the run's arena lasts: the whole run, drain
// included, and a minute more, at least the 5 minutes an arena lasts.
func arenaMinutes(cfg *config) int {
	run := cfg.setup + cfg.warmup + cfg.duration + drainTimeout
	return max(5, int((run+time.Minute-1)/time.Minute)+1)
}

// arenaReport is the result of an arena run (the JSON of --json).
type arenaReport struct {
	URL           string  `json:"url"`
	Mode          string  `json:"mode"`
	Arena         string  `json:"arena"`
	Clients       int     `json:"clients"` // players that joined and played
	RaceActions   int     `json:"raceActions"`
	SetupSeconds  float64 `json:"setupSeconds"`
	WarmupSeconds float64 `json:"warmupSeconds"`
	Seconds       float64 `json:"seconds"` // the measured window
	// The race figures, as --mode race reports them: the acks within the
	// window, their latency, the server's CPU time per ack.
	Acks          int           `json:"acks"`
	AcksPerSecond float64       `json:"acksPerSecond"`
	LatencyMs     latencyReport `json:"latencyMs"`
	TotalAcks     int           `json:"totalAcks"`
	// RacesFinished are the races that ended within the window, RacesTotal
	// those that ended in the whole run (each race once, whichever of its
	// players saw it end).
	RacesFinished int `json:"racesFinished"`
	RacesTotal    int `json:"racesTotal"`
	// PairingWaitMs is, over the whole run, how long a player waited from
	// its arena socket's first answer, or from the end of its race, to its
	// "paired" message; Pairings counts them.
	PairingWaitMs latencyReport `json:"pairingWaitMs"`
	Pairings      int           `json:"pairings"`
	// PushMs is, over the whole run, how long after a player saw its race
	// end the first arena push came whose row of the player counted that
	// race (0 when the push came first); Pushes counts them, and
	// PushesMissing the race ends no push showed by the end of the run.
	PushMs        latencyReport `json:"pushMs"`
	Pushes        int           `json:"pushes"`
	PushesMissing int           `json:"pushesMissing"`
	// ArenaMessages are the arena sockets' messages, ArenaConnects their
	// connections, Paused the players paused for an idle seat.
	ArenaMessages int `json:"arenaMessages"`
	ArenaConnects int `json:"arenaConnects"`
	Paused        int `json:"paused"`
	// Connects are the race sockets' connections, Frames their frames.
	Connects int            `json:"connects"`
	Protocol int            `json:"protocol"`
	Frames   int            `json:"frames"`
	Rejects  map[string]int `json:"rejects"` // rejected actions by code, whole run
	Errors   map[string]int `json:"errors"`  // other failures by code, whole run
	CPU      cpuReport      `json:"cpu"`

	// gameActs counts the acks of every race of the run by race id.
	gameActs map[string]int
}

// runArena signs the players up, creates the arena and joins them to it,
// lets them play through the warm-up and the window, measures the window and
// gathers the figures.
func runArena(ctx context.Context, cfg config) (*arenaReport, error) {
	hc := client.NewHTTPClient(2 * cfg.clients)
	defer hc.CloseIdleConnections()
	meter := newCPUMeter(&cfg, hc)
	if _, err := meter.seconds(ctx); err != nil {
		return nil, fmt.Errorf("load: the server's CPU time: %w", err)
	}
	rep := &arenaReport{URL: cfg.base, Mode: cfg.mode, RaceActions: cfg.raceActions, Protocol: cfg.protocol,
		Rejects: map[string]int{}, Errors: map[string]int{}, gameActs: map[string]int{},
		CPU: cpuReport{Source: meter.source, PIDs: cfg.pids}}

	players := make([]*arenaPlayer, cfg.clients)
	for i := range players {
		players[i] = newArenaPlayer(&cfg, hc)
	}
	setupStart := time.Now()
	setupCtx, cancelSetup := context.WithTimeout(ctx, cfg.setup)
	defer cancelSetup()
	first := players[0]
	if !first.create(setupCtx) {
		return rep, fmt.Errorf("load: could not create the arena within %v (errors: %s)", cfg.setup, client.ErrorList(first.errors))
	}
	rep.Arena = first.arena
	for _, p := range players[1:] {
		p.arena = first.arena
	}
	team, ready := setUp(setupCtx, players)
	cancelSetup()
	rep.SetupSeconds = time.Since(setupStart).Seconds()
	rep.Clients = ready

	w := measure(ctx, &cfg, meter, team)
	rep.WarmupSeconds, rep.Seconds = w.warmup, w.t1.Sub(w.t0).Seconds()
	var lat, waits, pushes []time.Duration
	ended := map[string]time.Time{}
	for _, p := range players {
		p.gather(rep, w.t0, w.t1, &lat, &waits, &pushes, ended)
	}
	for _, at := range ended {
		rep.RacesTotal++
		if !at.Before(w.t0) && !at.After(w.t1) {
			rep.RacesFinished++
		}
	}
	rep.Acks = len(lat)
	if rep.Seconds > 0 {
		rep.AcksPerSecond = float64(rep.Acks) / rep.Seconds
	}
	rep.LatencyMs = percentiles(lat)
	rep.PairingWaitMs, rep.Pairings = percentiles(waits), len(waits)
	rep.PushMs, rep.Pushes = percentiles(pushes), len(pushes)
	w.cpu(&rep.CPU, rep.Acks)
	if rep.Clients < 2 {
		return rep, fmt.Errorf("load: %d players got into the arena within %v, want 2 at least (errors: %s)",
			rep.Clients, cfg.setup, client.ErrorList(rep.Errors))
	}
	return rep, nil
}

// WriteText writes the report for people.
func (r *arenaReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "dsol load: arena %s, %d players, %d actions a seat a race, %s\n", r.Arena, r.Clients, r.RaceActions, r.URL)
	fmt.Fprintf(w, "setup       %.1fs, warm-up %.1fs\n", r.SetupSeconds, r.WarmupSeconds)
	fmt.Fprintf(w, "window      %.1fs\n", r.Seconds)
	fmt.Fprintf(w, "acks        %d (%.0f/s), %d in the whole run\n", r.Acks, r.AcksPerSecond, r.TotalAcks)
	l := r.LatencyMs
	fmt.Fprintf(w, "ack ms      p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  mean %.2f\n", l.P50, l.P90, l.P99, l.Max, l.Mean)
	fmt.Fprintf(w, "races       %d finished in the window, %d in the whole run\n", r.RacesFinished, r.RacesTotal)
	p := r.PairingWaitMs
	fmt.Fprintf(w, "pairing ms  p50 %.0f  p90 %.0f  p99 %.0f  max %.0f  (%d pairings, whole run)\n", p.P50, p.P90, p.P99, p.Max, r.Pairings)
	s := r.PushMs
	fmt.Fprintf(w, "push ms     p50 %.0f  p90 %.0f  p99 %.0f  max %.0f  (%d race ends, %d never shown)\n", s.P50, s.P90, s.P99, s.Max, r.Pushes, r.PushesMissing)
	fmt.Fprintf(w, "arena       %d socket messages, %d connections, %d paused idle\n", r.ArenaMessages, r.ArenaConnects, r.Paused)
	fmt.Fprintf(w, "connections %d race sockets, protocol %d, %d frames read\n", r.Connects, r.Protocol, r.Frames)
	fmt.Fprintf(w, "rejects     %s\n", client.ErrorList(r.Rejects))
	fmt.Fprintf(w, "errors      %s\n", client.ErrorList(r.Errors))
	writeCPU(w, r.CPU)
}
