package deploy

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// promqlStrings, promqlBraces, promqlBrackets and promqlLabelLists match
// the parts of a PromQL expression that hold no metric name: string
// literals, label matchers, ranges and subqueries, and label lists.
var (
	promqlStrings    = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|` + "`[^`]*`")
	promqlBraces     = regexp.MustCompile(`\{[^}]*\}`)
	promqlBrackets   = regexp.MustCompile(`\[[^\]]*\]`)
	promqlLabelLists = regexp.MustCompile(`(?i)\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)`)
	promqlIdent      = regexp.MustCompile(`[A-Za-z_:][A-Za-z0-9_:]*`)
)

// promqlKeywords are identifiers that are not metric names.
var promqlKeywords = map[string]bool{
	"and": true, "or": true, "unless": true, "bool": true, "offset": true,
	"by": true, "without": true, "on": true, "ignoring": true,
	"group_left": true, "group_right": true, "inf": true, "nan": true,
}

// metricNames returns the metric names an expression reads: every
// identifier outside strings, label matchers, ranges and label lists that
// is not a keyword, a number, a Grafana variable ($name) or a function or
// aggregation (an identifier followed by "(").
func metricNames(expr string) []string {
	e := promqlStrings.ReplaceAllString(expr, " ")
	e = promqlBraces.ReplaceAllString(e, " ")
	e = promqlBrackets.ReplaceAllString(e, " ")
	e = promqlLabelLists.ReplaceAllString(e, " ")
	var out []string
	for _, loc := range promqlIdent.FindAllStringIndex(e, -1) {
		name := e[loc[0]:loc[1]]
		if loc[0] > 0 {
			if prev := e[loc[0]-1]; prev == '$' || prev == '.' || (prev >= '0' && prev <= '9') {
				continue // a variable, or the exponent of a number
			}
		}
		if rest := strings.TrimLeft(e[loc[1]:], " \t\n"); strings.HasPrefix(rest, "(") {
			continue
		}
		if promqlKeywords[strings.ToLower(name)] || slices.Contains(out, name) {
			continue
		}
		out = append(out, name)
	}
	return out
}

func TestMetricNames(t *testing.T) {
	for expr, want := range map[string][]string{
		`up{job="dsol"} == 0`: {"up"},
		`histogram_quantile(0.99, sum by (le) (rate(dsol_commit_duration_seconds_bucket[5m]))) > 0.05`: {"dsol_commit_duration_seconds_bucket"},
		`sum(rate(a_total{status=~"5.."}[5m])) / sum(rate(a_total[5m])) > 1e-2`:                        {"a_total"},
		`sum(rate(x[$__rate_interval])) by (route) / on (route) group_left y offset 5m`:                {"x", "y"},
		`rate(foo[5m:1m]) and bool bar unless baz{a="b)"}`:                                             {"foo", "bar", "baz"},
		`count without (instance) (ns:recorded:rate5m)`:                                                {"ns:recorded:rate5m"},
	} {
		if got := metricNames(expr); !slices.Equal(got, want) {
			t.Errorf("metricNames(%s) = %q, want %q", expr, got, want)
		}
	}
}

// usedExpressions returns every PromQL expression of the alert rules and of
// the Grafana dashboards (any "expr" field), by where it is.
func usedExpressions(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	b, err := os.ReadFile("prometheus/rules.yml")
	if err != nil {
		t.Fatal(err)
	}
	var rules struct {
		Groups []struct {
			Name  string `json:"name"`
			Rules []struct {
				Alert  string `json:"alert"`
				Record string `json:"record"`
				Expr   string `json:"expr"`
			} `json:"rules"`
		} `json:"groups"`
	}
	if err := yaml.Unmarshal(b, &rules); err != nil {
		t.Fatal(err)
	}
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			out["rules.yml "+g.Name+"/"+r.Alert+r.Record] = r.Expr
		}
	}
	dashboards, err := filepath.Glob("grafana/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range dashboards {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		n := 0
		var walk func(any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					if s, ok := x.(string); ok && k == "expr" {
						n++
						out[f+" expr "+s] = s
					}
					walk(x)
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			}
		}
		walk(v)
		if n == 0 {
			t.Errorf("%s: no expr fields", f)
		}
	}
	return out
}

// synthetic are series that Prometheus makes itself, not a target.
var synthetic = map[string]bool{
	"up": true, "scrape_duration_seconds": true, "scrape_samples_scraped": true,
	"scrape_samples_post_metric_relabeling": true, "scrape_series_added": true,
	"ALERTS": true, "ALERTS_FOR_STATE": true,
}

// scrape is what a /metrics page serves: sample names and metric families
// with their types.
type scrape struct {
	samples  map[string]bool
	families map[string]string
}

func readScrape(t *testing.T, file string) scrape {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := scrape{samples: map[string]bool{}, families: map[string]string{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if fields := strings.Fields(line); len(fields) == 4 && fields[0] == "#" && fields[1] == "TYPE" {
			s.families[fields[2]] = fields[3]
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if i := strings.IndexAny(line, "{ "); i > 0 {
			s.samples[line[:i]] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return s
}

// has reports whether name is served: a sample, a family, or a histogram's
// or summary's _bucket, _sum or _count series.
func (s scrape) has(name string) bool {
	if s.samples[name] || s.families[name] != "" {
		return true
	}
	for _, suf := range []string{"_bucket", "_sum", "_count"} {
		if base, ok := strings.CutSuffix(name, suf); ok {
			typ := s.families[base]
			if typ == "histogram" || (typ == "summary" && suf != "_bucket") {
				return true
			}
		}
	}
	return false
}

// TestMetricNamesLive checks that every metric the alert rules and the
// dashboard read is served by a running dsol. DSOL_METRICS_SCRAPE names a
// file holding a /metrics page; .ci/deploy-check.sh starts a server, plays
// a solo game so that the counters exist, and sets it.
func TestMetricNamesLive(t *testing.T) {
	file := os.Getenv("DSOL_METRICS_SCRAPE")
	if file == "" {
		t.Skip("DSOL_METRICS_SCRAPE is not set (.ci/deploy-check.sh sets it to a live /metrics page)")
	}
	s := readScrape(t, file)
	if len(s.families) == 0 {
		t.Fatalf("%s: no metric families", file)
	}
	missing := map[string][]string{}
	for where, expr := range usedExpressions(t) {
		names := metricNames(expr)
		if len(names) == 0 {
			t.Errorf("%s: no metric name found in %s", where, expr)
		}
		for _, n := range names {
			if !synthetic[n] && !s.has(n) {
				missing[n] = append(missing[n], where)
			}
		}
	}
	var names []string
	for n := range missing {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		sort.Strings(missing[n])
		t.Errorf("missing from /metrics: %s (used by %s)", n, strings.Join(missing[n], "; "))
	}
}
