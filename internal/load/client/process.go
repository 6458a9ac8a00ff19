package client

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
)

// userHZ is the unit of the utime and stime fields of /proc/PID/stat: Linux
// reports them in USER_HZ clock ticks, 100 per second on every mainstream
// architecture and configuration (what `getconf CLK_TCK` prints). Reading it
// for real would take sysconf, which the Go standard library does not offer.
const userHZ = 100

// ProcessCPUSeconds returns the CPU time used so far by the process pid
// ("self" for this one).
func ProcessCPUSeconds(pid string) (float64, error) {
	raw, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, err
	}
	return procCPUSeconds(raw)
}

// procCPUSeconds reads utime + stime from the text of /proc/PID/stat. The
// second field, the command name in parentheses, may hold spaces and
// parentheses itself, so the fields are counted from the last ')': utime
// and stime are fields 14 and 15 of the line, the 12th and 13th after it.
func procCPUSeconds(stat []byte) (float64, error) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc stat without a command name: %.40q", stat)
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc stat with %d fields after the command name", len(f))
	}
	utime, err1 := strconv.ParseUint(f[11], 10, 64)
	stime, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc stat: utime %q, stime %q", f[11], f[12])
	}
	return float64(utime+stime) / userHZ, nil
}

// MetricsCPUSeconds finds process_cpu_seconds_total in a Prometheus text
// exposition.
func MetricsCPUSeconds(r io.Reader) (float64, error) {
	v, err := MetricValues(r, "process_cpu_seconds_total")
	if err != nil {
		return 0, err
	}
	return v[0], nil
}

// MetricValues finds the values of the named unlabelled (or first-listed)
// series in a Prometheus text exposition, in the order of names; a name
// missing is an error.
func MetricValues(r io.Reader, names ...string) ([]float64, error) {
	out := make([]float64, len(names))
	found := make([]bool, len(names))
	left := len(names)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() && left > 0 {
		line := sc.Text()
		for i, name := range names {
			rest, ok := strings.CutPrefix(line, name)
			if found[i] || !ok || rest == "" || (rest[0] != ' ' && rest[0] != '{') {
				continue
			}
			f := strings.Fields(rest[strings.LastIndexByte(rest, '}')+1:])
			if len(f) == 0 {
				continue
			}
			v, err := strconv.ParseFloat(f[0], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			out[i], found[i] = v, true
			left--
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for i, ok := range found {
		if !ok {
			return nil, fmt.Errorf("no %s in the server's /metrics", names[i])
		}
	}
	return out, nil
}

// MetricOf reads one series of the server's /metrics (see MetricValues).
func MetricOf(ctx context.Context, hc *http.Client, base, name string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	res, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	v, err := MetricValues(res.Body, name)
	if err != nil {
		return 0, err
	}
	return v[0], nil
}

// RSSKiB reads the resident memory of a process of this machine, in KiB
// (VmRSS of /proc/PID/status).
func RSSKiB(pid int) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, fmt.Errorf("load: the server's memory: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "VmRSS:" {
			return strconv.ParseInt(f[1], 10, 64)
		}
	}
	return 0, fmt.Errorf("load: no VmRSS in /proc/%d/status", pid)
}
