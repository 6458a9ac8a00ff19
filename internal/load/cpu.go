package load

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"dsol/internal/load/client"
)

// cpuMeter reads the CPU time (user and system) that the server has used so
// far, in seconds: the sum over processes of this machine from their
// /proc/PID/stat, or process_cpu_seconds_total of the server's /metrics.
type cpuMeter struct {
	pids   []int // none: /metrics
	hc     *http.Client
	url    string // the server's /metrics
	source string // "proc" or "metrics", for the report
}

// newCPUMeter measures the processes of --pid, else the server's /metrics.
func newCPUMeter(cfg *config, hc *http.Client) *cpuMeter {
	if len(cfg.pids) > 0 {
		return &cpuMeter{pids: cfg.pids, source: "proc"}
	}
	return &cpuMeter{hc: hc, url: cfg.base + "/metrics", source: "metrics"}
}

// seconds returns the CPU time used so far by each process, or by the
// server as its /metrics tell.
func (m *cpuMeter) seconds(ctx context.Context) ([]float64, error) {
	if len(m.pids) > 0 {
		out := make([]float64, len(m.pids))
		for i, pid := range m.pids {
			s, err := client.ProcessCPUSeconds(strconv.Itoa(pid))
			if err != nil {
				return nil, err
			}
			out[i] = s
		}
		return out, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.url, nil)
	if err != nil {
		return nil, err
	}
	res, err := m.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", m.url, res.Status)
	}
	s, err := client.MetricsCPUSeconds(res.Body)
	if err != nil {
		return nil, err
	}
	return []float64{s}, nil
}
