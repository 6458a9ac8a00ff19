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
//
// plus the Go runtime and process collectors.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promauto"
	"github.com/prometheus/client_golang/prometheus/promhttp"
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
	liveTables   prometheus.Gauge
}

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
			Help: "Group-commit writes that failed.",
		}),
		liveTables: f.NewGauge(prometheus.GaugeOpts{
			Name: "dsol_live_tables",
			Help: "Games held in memory by their table goroutine.",
		}),
	}
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
	if err != nil {
		m.commitErrs.Inc()
	}
}

// AddLiveTables moves the live tables gauge (table.Hooks.Live).
func (m *Metrics) AddLiveTables(delta int) { m.liveTables.Add(float64(delta)) }
