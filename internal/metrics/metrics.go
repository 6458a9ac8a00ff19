// Package metrics holds the server's Prometheus registry and its metric
// catalogue. Every metric is in base units (seconds, bytes, totals) and has
// only bounded labels: never a game or player id.
//
// Catalogue:
//
//	dsol_http_requests_total{route,method,status}     REST requests by chi route pattern
//	dsol_http_request_duration_seconds{route,method}  their latency
//	dsol_actions_total{type,result}                   actions by type; result "accepted" or the error code
//	dsol_commit_duration_seconds                      one group-commit write (AppendActions)
//	dsol_commit_batch_actions                         actions written per group commit
//	dsol_commit_errors_total                          failed group-commit writes
//	dsol_live_tables                                  games in memory
//	dsol_live_races                                   races in memory
//	dsol_ws_connections                               open WebSocket sessions
//	dsol_ws_messages_received_total{type}             client frames by type (action, ping, invalid)
//	dsol_ws_messages_sent_total{type}                 server frames by type (state, event, ack, reject, presence, over, pong)
//	dsol_ws_action_duration_seconds                   action frame read to its ack or reject written
//	dsol_ws_rejects_total{code}                       rejects sent, by error code
//	dsol_ws_slow_consumer_drops_total                 sessions dropped for not keeping up
//	dsol_lobby_connections                            open lobby WebSocket sessions
//	dsol_match_waiting                                players in this node's quick-match queue
//	dsol_match_wait_seconds                           how long a player waited in the queue before being paired
//	dsol_arenas_live                                  arenas live on this node
//	dsol_arena_players{state}                         their players: joined, connected (an arena socket open)
//	dsol_arena_pairing_wait_seconds                   how long a free arena player waited before being paired
//	dsol_arena_push_seconds                           one push of an arena's standings to its sockets
//	dsol_games_deleted_total                          abandoned games removed by the retention sweep
//	dsol_winnable_deals{mode,source}                  winnable deals known, of the shipped list or the stored pool
//	dsol_winnable_searched_total{mode}                deals the background search solved to the end of its budget
//	dsol_winnable_won_total{mode}                     of those, the ones won (added to the pool)
//	dsol_winnable_search_state{state}                 1 for what the search does now: searching, yielding, idle, off
//	dsol_winnable_search_cpu_seconds_total            CPU time the search used
//	dsol_build_info{version,commit,goversion}         1, labelled with the running build
//
// plus the Go runtime and process collectors.
package metrics

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promauto"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"dsol/internal/store"
)

// Metrics is the server's metric set on its own registry.
type Metrics struct {
	reg          *prometheus.Registry
	httpRequests *prometheus.CounterVec
	httpDuration *prometheus.HistogramVec
	actions      *prometheus.CounterVec
	commitDur    prometheus.Histogram
	commitBatch  prometheus.Histogram
	commitErrs   prometheus.Counter
	fences       prometheus.Counter
	elsewhere    prometheus.Counter
	moved        prometheus.Counter
	liveTables   prometheus.Gauge
	liveRaces    prometheus.Gauge
	wsConns      prometheus.Gauge
	wsIn         *prometheus.CounterVec
	wsOut        *prometheus.CounterVec
	wsAction     prometheus.Histogram
	wsRejects    *prometheus.CounterVec
	wsSlow       prometheus.Counter
	lobbyConns   prometheus.Gauge
	matchWaiting prometheus.Gauge
	matchWait    prometheus.Histogram
	arenasLive   prometheus.Gauge
	arenaPlayers *prometheus.GaugeVec
	arenaWait    prometheus.Histogram
	arenaPush    prometheus.Histogram
	gamesDeleted prometheus.Counter
	buildInfo    *prometheus.GaugeVec
	wDeals       *prometheus.GaugeVec
	wSearched    *prometheus.CounterVec
	wWon         *prometheus.CounterVec
	wState       *prometheus.GaugeVec
	wCPU         prometheus.Counter
}

// WinnableStates are the states of the background search of winnable deals.
var WinnableStates = []string{"searching", "yielding", "idle", "off"}

// New builds the metrics on a fresh local registry.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	f := promauto.With(reg)
	return &Metrics{
		reg: reg,
		httpRequests: f.NewCounterVec(prometheus.CounterOpts{
			Name: "dsol_http_requests_total",
			Help: "HTTP requests by route pattern, method and status code.",
		}, []string{"route", "method", "status"}),
		httpDuration: f.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "dsol_http_request_duration_seconds",
			Help:    "HTTP request latency by route pattern and method.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"route", "method"}),
		actions: f.NewCounterVec(prometheus.CounterOpts{
			Name: "dsol_actions_total",
			Help: "Game actions by type and result: accepted, or the error code of the refusal.",
		}, []string{"type", "result"}),
		commitDur: f.NewHistogram(prometheus.HistogramOpts{
			Name:    "dsol_commit_duration_seconds",
			Help:    "Duration of one group-commit write of the action log.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1},
		}),
		commitBatch: f.NewHistogram(prometheus.HistogramOpts{
			Name:    "dsol_commit_batch_actions",
			Help:    "Actions written by one group commit.",
			Buckets: []float64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512},
		}),
		commitErrs: f.NewCounter(prometheus.CounterOpts{
			Name: "dsol_commit_errors_total",
			Help: "Group-commit writes that failed for want of the store (fence conflicts are counted apart).",
		}),
		fences: f.NewCounter(prometheus.CounterOpts{
			Name: "dsol_fence_conflicts_total",
			Help: "Group-commit writes refused by the action log's fence: a seq or client id another writer had stored (a stale table, reloaded).",
		}),
		elsewhere: f.NewCounter(prometheus.CounterOpts{
			Name: "dsol_game_elsewhere_total",
			Help: "Requests for a game whose lease another node held (answered unavailable; the holder is asked to hand it over).",
		}),
		moved: f.NewCounter(prometheus.CounterOpts{
			Name: "dsol_games_moved_total",
			Help: "Live tables stopped because their game's lease was lost or handed over to another node.",
		}),
		liveRaces: f.NewGauge(prometheus.GaugeOpts{
			Name: "dsol_live_races",
			Help: "Races held in memory by their table goroutine.",
		}),
		liveTables: f.NewGauge(prometheus.GaugeOpts{
			Name: "dsol_live_tables",
			Help: "Games held in memory by their table goroutine.",
		}),
		wsConns: f.NewGauge(prometheus.GaugeOpts{
			Name: "dsol_ws_connections",
			Help: "Open WebSocket sessions.",
		}),
		wsIn: f.NewCounterVec(prometheus.CounterOpts{
			Name: "dsol_ws_messages_received_total",
			Help: "WebSocket frames received by message type (invalid for anything unreadable or unknown).",
		}, []string{"type"}),
		wsOut: f.NewCounterVec(prometheus.CounterOpts{
			Name: "dsol_ws_messages_sent_total",
			Help: "WebSocket frames sent by message type.",
		}, []string{"type"}),
		wsAction: f.NewHistogram(prometheus.HistogramOpts{
			Name:    "dsol_ws_action_duration_seconds",
			Help:    "Time from reading an action frame to writing its ack or reject.",
			Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
		}),
		wsRejects: f.NewCounterVec(prometheus.CounterOpts{
			Name: "dsol_ws_rejects_total",
			Help: "WebSocket rejects sent, by error code.",
		}, []string{"code"}),
		wsSlow: f.NewCounter(prometheus.CounterOpts{
			Name: "dsol_ws_slow_consumer_drops_total",
			Help: "WebSocket sessions dropped because they did not read fast enough.",
		}),
		lobbyConns: f.NewGauge(prometheus.GaugeOpts{
			Name: "dsol_lobby_connections",
			Help: "Open lobby WebSocket sessions.",
		}),
		matchWaiting: f.NewGauge(prometheus.GaugeOpts{
			Name: "dsol_match_waiting",
			Help: "Players waiting in this node's quick-match queue.",
		}),
		matchWait: f.NewHistogram(prometheus.HistogramOpts{
			Name:    "dsol_match_wait_seconds",
			Help:    "How long a player waited in the quick-match queue before being paired.",
			Buckets: []float64{.1, .5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300},
		}),
		arenasLive: f.NewGauge(prometheus.GaugeOpts{
			Name: "dsol_arenas_live",
			Help: "Arenas live on this node.",
		}),
		arenaPlayers: f.NewGaugeVec(prometheus.GaugeOpts{
			Name: "dsol_arena_players",
			Help: "Players of the arenas live on this node: joined, and connected (an arena socket open).",
		}, []string{"state"}),
		arenaWait: f.NewHistogram(prometheus.HistogramOpts{
			Name:    "dsol_arena_pairing_wait_seconds",
			Help:    "How long a free arena player (joined, not paused, socket open, not in a race) waited before being paired.",
			Buckets: []float64{.25, .5, 1, 1.5, 2, 3, 5, 10, 30, 60},
		}),
		arenaPush: f.NewHistogram(prometheus.HistogramOpts{
			Name:    "dsol_arena_push_seconds",
			Help:    "One push of an arena's standings to its sockets.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25},
		}),
		gamesDeleted: f.NewCounter(prometheus.CounterOpts{
			Name: "dsol_games_deleted_total",
			Help: "Abandoned unfinished games deleted by the retention sweep.",
		}),
		buildInfo: f.NewGaugeVec(prometheus.GaugeOpts{
			Name: "dsol_build_info",
			Help: "Always 1, labelled with the version, the commit and the Go version of the running build.",
		}, []string{"version", "commit", "goversion"}),
		wDeals: f.NewGaugeVec(prometheus.GaugeOpts{
			Name: "dsol_winnable_deals",
			Help: "Winnable deals known by mode: source list (shipped in the binary) or pool (found by the background search, stored).",
		}, []string{"mode", "source"}),
		wSearched: f.NewCounterVec(prometheus.CounterOpts{
			Name: "dsol_winnable_searched_total",
			Help: "Deals the background search of winnable deals solved to the end of its budget, or won, by mode.",
		}, []string{"mode"}),
		wWon: f.NewCounterVec(prometheus.CounterOpts{
			Name: "dsol_winnable_won_total",
			Help: "Deals the background search won (and added to the pool), by mode.",
		}, []string{"mode"}),
		wState: f.NewGaugeVec(prometheus.GaugeOpts{
			Name: "dsol_winnable_search_state",
			Help: "1 for what the background search of winnable deals does now (searching; yielding: the process is busy; idle: every mode has its target; off), 0 for the others.",
		}, []string{"state"}),
		wCPU: f.NewCounter(prometheus.CounterOpts{
			Name: "dsol_winnable_search_cpu_seconds_total",
			Help: "CPU time the background search of winnable deals used.",
		}),
	}
}

// SetBuildInfo makes dsol_build_info{version,commit,goversion} 1 for this
// build, its only series.
func (m *Metrics) SetBuildInfo(version, commit, goVersion string) {
	m.buildInfo.Reset()
	m.buildInfo.WithLabelValues(version, commit, goVersion).Set(1)
}

// Registry returns the Prometheus registry, for extra collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// ObserveHTTP records one request; route is the chi route pattern (never the
// raw path), "" for unmatched requests.
func (m *Metrics) ObserveHTTP(route, method string, status int, d time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	m.httpRequests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.httpDuration.WithLabelValues(route, method).Observe(d.Seconds())
}

// ObserveAction records a handled action: code "" when it was accepted.
func (m *Metrics) ObserveAction(actionType, code string) {
	if actionType == "" {
		actionType = "unknown"
	}
	if code == "" {
		code = "accepted"
	}
	m.actions.WithLabelValues(actionType, code).Inc()
}

// ObserveCommit is the observe callback of store.NewCommitter.
func (m *Metrics) ObserveCommit(batchSize int, d time.Duration, err error) {
	m.commitDur.Observe(d.Seconds())
	m.commitBatch.Observe(float64(batchSize))
	switch {
	case err == nil:
	case errors.Is(err, store.ErrConflict):
		m.fences.Inc()
	default:
		m.commitErrs.Inc()
	}
}

// ObserveElsewhere counts a request for a game another node holds
// (live.Hooks.Elsewhere).
func (m *Metrics) ObserveElsewhere() { m.elsewhere.Inc() }

// ObserveMoved counts a table stopped because its game moved to another
// node (live.Hooks.Moved).
func (m *Metrics) ObserveMoved() { m.moved.Inc() }

// AddLiveTables moves the live tables gauge (live.Hooks.Live).
func (m *Metrics) AddLiveTables(delta int) { m.liveTables.Add(float64(delta)) }

// AddLiveRaces moves the live races gauge (live.Hooks.Races).
func (m *Metrics) AddLiveRaces(delta int) { m.liveRaces.Add(float64(delta)) }

// AddWSConnections moves the open WebSocket sessions gauge.
func (m *Metrics) AddWSConnections(delta int) { m.wsConns.Add(float64(delta)) }

// AddLobbyConnections moves the open lobby WebSocket sessions gauge.
func (m *Metrics) AddLobbyConnections(delta int) { m.lobbyConns.Add(float64(delta)) }

// SetArenas sets the arena gauges (arena.Config.Counts).
func (m *Metrics) SetArenas(arenas, joined, connected int) {
	m.arenasLive.Set(float64(arenas))
	m.arenaPlayers.WithLabelValues("joined").Set(float64(joined))
	m.arenaPlayers.WithLabelValues("connected").Set(float64(connected))
}

// ObserveArenaWait records a free arena player's wait until paired.
func (m *Metrics) ObserveArenaWait(d time.Duration) { m.arenaWait.Observe(d.Seconds()) }

// ObserveArenaPush records one push of an arena's standings.
func (m *Metrics) ObserveArenaPush(d time.Duration) { m.arenaPush.Observe(d.Seconds()) }

// SetMatchWaiting sets the quick-match queue gauge (live.Hooks.MatchWaiting).
func (m *Metrics) SetMatchWaiting(n int) { m.matchWaiting.Set(float64(n)) }

// ObserveMatchWait records how long a paired player waited (live.Hooks.MatchWait).
func (m *Metrics) ObserveMatchWait(d time.Duration) { m.matchWait.Observe(d.Seconds()) }

// ObserveWSIn counts a received WebSocket frame; typ must come from a fixed
// set (the known message types, or "invalid").
func (m *Metrics) ObserveWSIn(typ string) { m.wsIn.WithLabelValues(typ).Inc() }

// ObserveWSOut counts a sent WebSocket frame by its message type.
func (m *Metrics) ObserveWSOut(typ string) { m.wsOut.WithLabelValues(typ).Inc() }

// ObserveWSAction records the time from an action frame read to its answer
// (ack or reject) written.
func (m *Metrics) ObserveWSAction(d time.Duration) { m.wsAction.Observe(d.Seconds()) }

// ObserveWSReject counts a reject sent, by error code.
func (m *Metrics) ObserveWSReject(code string) { m.wsRejects.WithLabelValues(code).Inc() }

// ObserveWSSlowDrop counts a session dropped as a slow consumer.
func (m *Metrics) ObserveWSSlowDrop() { m.wsSlow.Inc() }

// AddGamesDeleted counts games deleted by the retention sweep.
func (m *Metrics) AddGamesDeleted(n int) { m.gamesDeleted.Add(float64(n)) }

// SetWinnableDeals sets the winnable deals known of a mode: listed in the
// shipped list, stored in the pool.
func (m *Metrics) SetWinnableDeals(mode string, listed, stored int) {
	m.wDeals.WithLabelValues(mode, "list").Set(float64(listed))
	m.wDeals.WithLabelValues(mode, "pool").Set(float64(stored))
}

// ObserveWinnableSearch counts a deal the search of winnable deals solved,
// and whether it won it.
func (m *Metrics) ObserveWinnableSearch(mode string, won bool) {
	m.wSearched.WithLabelValues(mode).Inc()
	if won {
		m.wWon.WithLabelValues(mode).Inc()
	} else {
		m.wWon.WithLabelValues(mode).Add(0)
	}
}

// SetWinnableState makes state (one of WinnableStates) the search's state.
func (m *Metrics) SetWinnableState(state string) {
	for _, s := range WinnableStates {
		v := 0.0
		if s == state {
			v = 1
		}
		m.wState.WithLabelValues(s).Set(v)
	}
}

// AddWinnableCPU adds CPU time the search used.
func (m *Metrics) AddWinnableCPU(d time.Duration) { m.wCPU.Add(d.Seconds()) }
