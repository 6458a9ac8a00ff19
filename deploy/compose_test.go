package deploy

import (
	"bytes"
	"encoding/json"
	"net/netip"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// composeFile is the part of the Compose file format that compose.yaml uses;
// decoding refuses anything else, so a new key gets a look from this test.
type composeFile struct {
	Name     string                    `json:"name"`
	Networks map[string]composeNetwork `json:"networks"`
	Services map[string]composeService `json:"services"`
	Volumes  map[string]struct{}       `json:"volumes"`
}

type composeNetwork struct {
	IPAM struct {
		Config []struct {
			Subnet string `json:"subnet"`
		} `json:"config"`
	} `json:"ipam"`
}

type composeService struct {
	Image       string            `json:"image"`
	Build       string            `json:"build"`
	Environment map[string]string `json:"environment"`
	Volumes     []string          `json:"volumes"`
	Ports       []string          `json:"ports"`
	Networks    []string          `json:"networks"`
	Restart     string            `json:"restart"`
	Healthcheck *struct {
		Test        []string `json:"test"`
		Interval    string   `json:"interval"`
		Timeout     string   `json:"timeout"`
		StartPeriod string   `json:"start_period"`
		Retries     int      `json:"retries"`
	} `json:"healthcheck"`
	DependsOn json.RawMessage `json:"depends_on"` // a list of names, or names to conditions
}

// dependsOn returns the services s waits for, each with its condition
// (service_started for the list form).
func (s composeService) dependsOn(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	if len(s.DependsOn) == 0 {
		return out
	}
	var list []string
	if json.Unmarshal(s.DependsOn, &list) == nil {
		for _, n := range list {
			out[n] = "service_started"
		}
		return out
	}
	var long map[string]struct {
		Condition string `json:"condition"`
	}
	d := json.NewDecoder(bytes.NewReader(s.DependsOn))
	d.DisallowUnknownFields()
	if err := d.Decode(&long); err != nil {
		t.Fatalf("depends_on: %v", err)
	}
	for n, c := range long {
		out[n] = c.Condition
	}
	return out
}

func loadCompose(t *testing.T) composeFile {
	t.Helper()
	b, err := os.ReadFile("compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c composeFile
	if err := decodeStrict(b, &c); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	return c
}

func TestCompose(t *testing.T) {
	c := loadCompose(t)
	img := parseDockerfile(t)
	if len(c.Networks) != 1 {
		t.Fatalf("compose.yaml: want one network, got %d", len(c.Networks))
	}
	var netName string
	var subnet netip.Prefix
	for n, nw := range c.Networks {
		netName = n
		if len(nw.IPAM.Config) != 1 {
			t.Fatalf("network %s: want one explicit subnet", n)
		}
		var err error
		if subnet, err = netip.ParsePrefix(nw.IPAM.Config[0].Subnet); err != nil {
			t.Fatalf("network %s: %v", n, err)
		}
	}
	nodes := 0
	for name, s := range c.Services {
		if s.Restart != "unless-stopped" {
			t.Errorf("%s: restart %q, want unless-stopped", name, s.Restart)
		}
		if s.Healthcheck == nil || len(s.Healthcheck.Test) < 2 || s.Healthcheck.Test[0] != "CMD" {
			t.Errorf("%s: no healthcheck in exec form ([CMD, …])", name)
		}
		if !slices.Equal(s.Networks, []string{netName}) {
			t.Errorf("%s: networks %v, want [%s]", name, s.Networks, netName)
		}
		if _, tag := imageTag(s.Image); tag == "" || tag == "latest" {
			t.Errorf("%s: image %q is not pinned", name, s.Image)
		}
		for dep, cond := range s.dependsOn(t) {
			if _, ok := c.Services[dep]; !ok {
				t.Errorf("%s: depends on %s, which is not a service", name, dep)
			}
			if c.Services[dep].Healthcheck != nil && cond != "service_healthy" {
				t.Errorf("%s: waits for %s to start (%s), not to be healthy", name, dep, cond)
			}
		}
		if s.Build == "" {
			continue
		}
		// a dsol node
		nodes++
		if n, tag := imageTag(s.Image); n != "dsol" || tag != img.version {
			t.Errorf("%s: image %q, want dsol:%s (the Dockerfile's DSOL_VERSION)", name, s.Image, img.version)
		}
		if !slices.Equal(s.Healthcheck.Test[1:], img.healthcheck) {
			t.Errorf("%s: healthcheck %q, the image's HEALTHCHECK is %q", name, s.Healthcheck.Test[1:], img.healthcheck)
		}
		proxies := strings.Split(s.Environment["DSOL_TRUSTED_PROXIES"], ",")
		for _, p := range proxies {
			pr, err := netip.ParsePrefix(strings.TrimSpace(p))
			if err != nil {
				a, aerr := netip.ParseAddr(strings.TrimSpace(p))
				if aerr != nil {
					t.Errorf("%s: DSOL_TRUSTED_PROXIES entry %q: %v", name, p, err)
					continue
				}
				pr = netip.PrefixFrom(a, a.BitLen())
			}
			if pr.Bits() < subnet.Bits() || !subnet.Contains(pr.Addr()) {
				t.Errorf("%s: trusts %s, wider than the compose network %s", name, pr, subnet)
			}
		}
		if !strings.HasPrefix(s.Environment["DATABASE_URL"], "postgres://") {
			t.Errorf("%s: nodes share a PostgreSQL store, DATABASE_URL is %q", name, s.Environment["DATABASE_URL"])
		}
		if s.dependsOn(t)["postgres"] != "service_healthy" {
			t.Errorf("%s: does not wait for a healthy postgres", name)
		}
	}
	if nodes < 2 {
		t.Errorf("compose.yaml: %d dsol nodes, want at least two (routing by game id)", nodes)
	}
	if pg := c.Services["postgres"].Image; pg != "postgres:15" && !strings.HasPrefix(pg, "postgres:15.") {
		t.Errorf("postgres: image %q, want major version 15 (as CI)", pg)
	}
}

// TestPrometheusFiles checks that Prometheus finds its rules beside its
// configuration both outside a container (promtool) and in compose, and that
// it scrapes the nodes and alerts through services that exist.
func TestPrometheusFiles(t *testing.T) {
	c := loadCompose(t)
	b, err := os.ReadFile("prometheus/prometheus.yml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		RuleFiles []string `json:"rule_files"`
		Alerting  struct {
			Alertmanagers []struct {
				StaticConfigs []struct {
					Targets []string `json:"targets"`
				} `json:"static_configs"`
			} `json:"alertmanagers"`
		} `json:"alerting"`
		ScrapeConfigs []struct {
			JobName       string `json:"job_name"`
			StaticConfigs []struct {
				Targets []string `json:"targets"`
			} `json:"static_configs"`
		} `json:"scrape_configs"`
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	mounts := map[string]string{} // host file -> container path
	for _, v := range c.Services["prometheus"].Volumes {
		parts := strings.Split(v, ":")
		if len(parts) >= 2 {
			mounts[path.Clean(strings.TrimPrefix(parts[0], "./"))] = parts[1]
		}
	}
	confIn := mounts["prometheus/prometheus.yml"]
	if confIn == "" {
		t.Fatal("compose: prometheus.yml is not mounted into prometheus")
	}
	if len(cfg.RuleFiles) == 0 {
		t.Error("prometheus.yml: no rule_files")
	}
	for _, r := range cfg.RuleFiles {
		if path.IsAbs(r) {
			t.Errorf("prometheus.yml: rule file %s is absolute; promtool resolves relative paths against the file", r)
			continue
		}
		if _, err := os.Stat(path.Join("prometheus", r)); err != nil {
			t.Errorf("prometheus.yml: rule file %s: %v", r, err)
		}
		if got, want := mounts[path.Join("prometheus", r)], path.Join(path.Dir(confIn), r); got != want {
			t.Errorf("compose: prometheus/%s is mounted at %q, want %q (beside the configuration)", r, got, want)
		}
	}
	hostOf := func(target string) string { h, _, _ := strings.Cut(target, ":"); return h }
	ams := 0
	for _, am := range cfg.Alerting.Alertmanagers {
		for _, sc := range am.StaticConfigs {
			for _, tg := range sc.Targets {
				ams++
				if _, ok := c.Services[hostOf(tg)]; !ok {
					t.Errorf("prometheus.yml: alerts go to %s, not a compose service", tg)
				}
			}
		}
	}
	if ams == 0 {
		t.Error("prometheus.yml: no Alertmanager in alerting:")
	}
	var dsolTargets []string
	for _, sc := range cfg.ScrapeConfigs {
		for _, s := range sc.StaticConfigs {
			for _, tg := range s.Targets {
				if h := hostOf(tg); h != "localhost" {
					if _, ok := c.Services[h]; !ok {
						t.Errorf("prometheus.yml: job %s scrapes %s, not a compose service", sc.JobName, tg)
					}
				}
				if sc.JobName == "dsol" {
					dsolTargets = append(dsolTargets, hostOf(tg))
				}
			}
		}
	}
	for name, s := range c.Services {
		if s.Build != "" && !slices.Contains(dsolTargets, name) {
			t.Errorf("prometheus.yml: job dsol does not scrape the node %s", name)
		}
	}
}
