package client

import (
	"os"
	"strings"
	"testing"
)

// TestServerCPU checks the two readings of the server's CPU time.
func TestServerCPU(t *testing.T) {
	stat := []byte("4242 (dsol (serve) x) S 1 4242 4242 0 -1 4194560 1234 0 0 0 1500 250 0 0 20 0 12 0 100 0 0\n")
	if got, err := procCPUSeconds(stat); err != nil || got != 17.5 {
		t.Errorf("procCPUSeconds = %v, %v; want 17.5", got, err)
	}
	if _, err := procCPUSeconds([]byte("4242 (dsol) S 1")); err == nil {
		t.Error("short stat: no error")
	}
	raw, err := os.ReadFile("/proc/self/stat")
	if err == nil {
		if _, err := procCPUSeconds(raw); err != nil {
			t.Errorf("/proc/self/stat: %v", err)
		}
	}
	metrics := "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n" +
		"# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total_other 9\nprocess_cpu_seconds_total 12.34\n"
	if got, err := MetricsCPUSeconds(strings.NewReader(metrics)); err != nil || got != 12.34 {
		t.Errorf("MetricsCPUSeconds = %v, %v; want 12.34", got, err)
	}
	if _, err := MetricsCPUSeconds(strings.NewReader("go_goroutines 3\n")); err == nil {
		t.Error("no cpu metric: no error")
	}
}
