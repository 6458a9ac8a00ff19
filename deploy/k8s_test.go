package deploy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"
)

// manifestFiles are the Kubernetes files that ship: the ones kubectl applies
// from k8s/, the Secret template and the ingress-nginx controller entry.
var manifestFiles = []string{
	"k8s/dsol.yaml",
	"k8s/dsol-db-secret.yaml.example",
	"k8s/ingress-nginx/controller-config.yaml",
}

// manifests is every object of manifestFiles, by type.
type manifests struct {
	deployments []*appsv1.Deployment
	services    []*corev1.Service
	secrets     []*corev1.Secret
	configMaps  []*corev1.ConfigMap
	pdbs        []*policyv1.PodDisruptionBudget
	ingresses   []*networkingv1.Ingress
}

// docSeparator splits a YAML stream into its documents.
var docSeparator = regexp.MustCompile(`(?m)^---[ \t]*$`)

// decodeStrict turns one YAML document into JSON (refusing duplicate keys)
// and decodes it into v, refusing any field v's type does not have.
func decodeStrict(doc []byte, v any) error {
	j, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		return err
	}
	d := json.NewDecoder(bytes.NewReader(j))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return fmt.Errorf("trailing data after the object")
	}
	return nil
}

// loadManifests decodes every document of every manifest file into the
// k8s.io/api type its apiVersion and kind name.
func loadManifests(t *testing.T) manifests {
	t.Helper()
	var m manifests
	for _, f := range manifestFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range docSeparator.Split(string(b), -1) {
			var head struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
			}
			if err := yaml.Unmarshal([]byte(doc), &head); err != nil {
				t.Fatalf("%s, document %d: %v", f, i+1, err)
			}
			if head.Kind == "" && strings.TrimSpace(stripComments(doc)) == "" {
				continue // only comments
			}
			var obj any
			switch head.APIVersion + " " + head.Kind {
			case "apps/v1 Deployment":
				d := new(appsv1.Deployment)
				m.deployments, obj = append(m.deployments, d), d
			case "v1 Service":
				s := new(corev1.Service)
				m.services, obj = append(m.services, s), s
			case "v1 Secret":
				s := new(corev1.Secret)
				m.secrets, obj = append(m.secrets, s), s
			case "v1 ConfigMap":
				c := new(corev1.ConfigMap)
				m.configMaps, obj = append(m.configMaps, c), c
			case "policy/v1 PodDisruptionBudget":
				p := new(policyv1.PodDisruptionBudget)
				m.pdbs, obj = append(m.pdbs, p), p
			case "networking.k8s.io/v1 Ingress":
				g := new(networkingv1.Ingress)
				m.ingresses, obj = append(m.ingresses, g), g
			default:
				t.Fatalf("%s, document %d: no check knows %s %s", f, i+1, head.APIVersion, head.Kind)
			}
			if err := decodeStrict([]byte(doc), obj); err != nil {
				t.Fatalf("%s, document %d (%s): %v", f, i+1, head.Kind, err)
			}
		}
	}
	return m
}

// stripComments drops YAML comment lines.
func stripComments(doc string) string {
	var out []string
	for _, l := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// image is what the Dockerfile's final stage says about the image it builds.
type image struct {
	uid, gid    int64
	version     string   // ARG DSOL_VERSION's default
	healthcheck []string // HEALTHCHECK CMD, exec form
}

// parseDockerfile reads the final stage of the Dockerfile: its numeric USER,
// the DSOL_VERSION it is tagged with and its HEALTHCHECK command.
func parseDockerfile(t *testing.T) image {
	t.Helper()
	b, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var img image
	var user string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		switch strings.ToUpper(fields[0]) {
		case "FROM":
			img, user = image{}, "" // a new stage: only the last one runs
		case "USER":
			user = fields[1]
		case "ARG":
			if v, ok := strings.CutPrefix(fields[1], "DSOL_VERSION="); ok {
				img.version = v
			}
		case "HEALTHCHECK":
			line := sc.Text()
			i := strings.Index(line, " CMD ")
			if i < 0 {
				t.Fatalf("Dockerfile: HEALTHCHECK without CMD: %s", line)
			}
			if err := json.Unmarshal([]byte(line[i+len(" CMD "):]), &img.healthcheck); err != nil {
				t.Fatalf("Dockerfile: HEALTHCHECK CMD is not in exec form (the image has no shell): %v", err)
			}
		}
	}
	u, g, ok := strings.Cut(user, ":")
	var err1, err2 error
	img.uid, err1 = strconv.ParseInt(u, 10, 64)
	img.gid, err2 = strconv.ParseInt(g, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		t.Fatalf("Dockerfile: the final stage's USER must be numeric UID:GID (Kubernetes checks runAsNonRoot on numbers), got %q", user)
	}
	if img.uid == 0 {
		t.Fatal("Dockerfile: USER is root")
	}
	if img.version == "" {
		t.Fatal("Dockerfile: no ARG DSOL_VERSION=… in the final stage")
	}
	return img
}

func TestDockerfile(t *testing.T) {
	img := parseDockerfile(t)
	if want := []string{"/dsol", "healthz"}; !slices.Equal(img.healthcheck, want) {
		t.Errorf("Dockerfile: HEALTHCHECK CMD %q, want %q", img.healthcheck, want)
	}
}

func TestManifestsDecodeStrictly(t *testing.T) {
	m := loadManifests(t)
	if len(m.deployments) == 0 || len(m.services) == 0 || len(m.ingresses) == 0 || len(m.pdbs) == 0 || len(m.secrets) == 0 {
		t.Fatalf("expected at least one Deployment, Service, Ingress, PodDisruptionBudget and Secret, got %d, %d, %d, %d, %d",
			len(m.deployments), len(m.services), len(m.ingresses), len(m.pdbs), len(m.secrets))
	}
}

// imageTag splits an image reference into its name and tag ("" if none).
func imageTag(ref string) (name, tag string) {
	if i := strings.Index(ref, "@"); i >= 0 {
		ref = ref[:i]
	}
	slash := strings.LastIndex(ref, "/")
	if i := strings.LastIndex(ref, ":"); i > slash {
		return ref[:i], ref[i+1:]
	}
	return ref, ""
}

func TestPods(t *testing.T) {
	m := loadManifests(t)
	img := parseDockerfile(t)
	for _, d := range m.deployments {
		t.Run(d.Name, func(t *testing.T) {
			spec := d.Spec.Template.Spec
			psc := spec.SecurityContext
			if psc == nil {
				t.Fatal("no pod securityContext")
			}
			if psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot {
				t.Error("pod securityContext.runAsNonRoot is not true")
			}
			if psc.RunAsUser == nil || *psc.RunAsUser != img.uid {
				t.Errorf("pod securityContext.runAsUser is not %d, the Dockerfile's USER", img.uid)
			}
			if psc.RunAsGroup == nil || *psc.RunAsGroup != img.gid {
				t.Errorf("pod securityContext.runAsGroup is not %d, the Dockerfile's USER group", img.gid)
			}
			if psc.FSGroup == nil || *psc.FSGroup != img.gid {
				t.Errorf("pod securityContext.fsGroup is not %d", img.gid)
			}
			if psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
				t.Error("pod securityContext.seccompProfile is not RuntimeDefault")
			}
			volumes := map[string]bool{}
			for _, v := range spec.Volumes {
				volumes[v.Name] = true
			}
			if len(spec.Containers) == 0 {
				t.Fatal("no containers")
			}
			for _, c := range append(slices.Clone(spec.InitContainers), spec.Containers...) {
				checkContainer(t, m, img, c, volumes)
			}
		})
	}
}

// checkContainer checks one container of a pod template.
func checkContainer(t *testing.T, m manifests, img image, c corev1.Container, volumes map[string]bool) {
	t.Helper()
	name, tag := imageTag(c.Image)
	switch {
	case tag == "" && !strings.Contains(c.Image, "@sha256:"):
		t.Errorf("%s: image %q has no tag", c.Name, c.Image)
	case tag == "latest":
		t.Errorf("%s: image %q is not pinned", c.Name, c.Image)
	case name == "dsol" && tag != img.version:
		t.Errorf("%s: image %q, but the Dockerfile's DSOL_VERSION is %s", c.Name, c.Image, img.version)
	}
	if c.ImagePullPolicy == "" {
		t.Errorf("%s: no imagePullPolicy", c.Name)
	}

	sc := c.SecurityContext
	if sc == nil {
		t.Fatalf("%s: no securityContext", c.Name)
	}
	if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
		t.Errorf("%s: allowPrivilegeEscalation is not false", c.Name)
	}
	if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
		t.Errorf("%s: readOnlyRootFilesystem is not true", c.Name)
	}
	if sc.Capabilities == nil || !slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) || len(sc.Capabilities.Add) > 0 {
		t.Errorf("%s: capabilities must drop ALL and add none", c.Name)
	}
	if sc.Privileged != nil && *sc.Privileged {
		t.Errorf("%s: privileged", c.Name)
	}
	if sc.RunAsUser != nil && *sc.RunAsUser != img.uid {
		t.Errorf("%s: runAsUser %d, the Dockerfile's USER is %d", c.Name, *sc.RunAsUser, img.uid)
	}
	if sc.RunAsNonRoot != nil && !*sc.RunAsNonRoot {
		t.Errorf("%s: runAsNonRoot false", c.Name)
	}
	if sc.SeccompProfile != nil && sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("%s: seccompProfile %s", c.Name, sc.SeccompProfile.Type)
	}
	for _, vm := range c.VolumeMounts {
		if !volumes[vm.Name] {
			t.Errorf("%s: mounts volume %q, which the pod does not have", c.Name, vm.Name)
		}
	}

	r := c.Resources
	for _, res := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		req, ok := r.Requests[res]
		if !ok {
			t.Errorf("%s: no %s request", c.Name, res)
		}
		lim, ok := r.Limits[res]
		if !ok {
			t.Errorf("%s: no %s limit", c.Name, res)
		} else if lim.Cmp(req) < 0 {
			t.Errorf("%s: %s limit %s below the request %s", c.Name, res, lim.String(), req.String())
		}
	}

	probes := []struct {
		what  string
		probe *corev1.Probe
		path  string
	}{
		{"livenessProbe", c.LivenessProbe, "/healthz"},
		{"readinessProbe", c.ReadinessProbe, "/readyz"},
		{"startupProbe", c.StartupProbe, "/healthz"},
	}
	for _, p := range probes {
		if p.probe == nil || p.probe.HTTPGet == nil {
			t.Errorf("%s: no HTTP %s", c.Name, p.what)
			continue
		}
		if p.probe.HTTPGet.Path != p.path {
			t.Errorf("%s: %s on %s, want %s", c.Name, p.what, p.probe.HTTPGet.Path, p.path)
		}
		if _, ok := containerPort(c, p.probe.HTTPGet.Port); !ok {
			t.Errorf("%s: %s port %s is not a container port", c.Name, p.what, p.probe.HTTPGet.Port.String())
		}
	}

	env := map[string]corev1.EnvVar{}
	for i, e := range c.Env {
		if _, dup := env[e.Name]; dup {
			t.Errorf("%s: env %s twice", c.Name, e.Name)
		}
		// $(VAR) in a value expands only variables defined earlier in the list
		for _, ref := range regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`).FindAllStringSubmatch(e.Value, -1) {
			if _, ok := env[ref[1]]; !ok {
				t.Errorf("%s: env %s (entry %d) refers to $(%s), which is not defined before it", c.Name, e.Name, i, ref[1])
			}
		}
		env[e.Name] = e
		if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
			ref := e.ValueFrom.SecretKeyRef
			if !secretHasKey(m, ref.Name, ref.Key) {
				t.Errorf("%s: env %s reads key %q of Secret %q, which no Secret template has", c.Name, e.Name, ref.Key, ref.Name)
			}
		}
	}
	if e, ok := env["DATABASE_URL"]; !ok || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
		t.Errorf("%s: DATABASE_URL must come from a Secret (the root filesystem is read-only: no SQLite)", c.Name)
	}
	if e := env["POD_IP"]; e.ValueFrom == nil || e.ValueFrom.FieldRef == nil || e.ValueFrom.FieldRef.FieldPath != "status.podIP" {
		t.Errorf("%s: POD_IP must come from the downward API (status.podIP)", c.Name)
	}
	if e := env["POD_NAME"]; e.ValueFrom == nil || e.ValueFrom.FieldRef == nil || e.ValueFrom.FieldRef.FieldPath != "metadata.name" {
		t.Errorf("%s: POD_NAME must come from the downward API (metadata.name)", c.Name)
	}
	adv := env["DSOL_ADVERTISE"].Value
	host, port, ok := strings.Cut(adv, ":")
	if !ok || host != "$(POD_IP)" {
		t.Errorf("%s: DSOL_ADVERTISE %q, want $(POD_IP):PORT", c.Name, adv)
	} else if p, err := strconv.Atoi(port); err != nil {
		t.Errorf("%s: DSOL_ADVERTISE port %q", c.Name, port)
	} else if _, ok := containerPort(c, intstr.FromInt32(int32(p))); !ok {
		t.Errorf("%s: DSOL_ADVERTISE port %d is not a container port", c.Name, p)
	}
}

// containerPort finds the container port that p (a name or a number) names.
func containerPort(c corev1.Container, p intstr.IntOrString) (corev1.ContainerPort, bool) {
	for _, cp := range c.Ports {
		if (p.Type == intstr.String && cp.Name == p.StrVal) || (p.Type == intstr.Int && cp.ContainerPort == p.IntVal) {
			return cp, true
		}
	}
	return corev1.ContainerPort{}, false
}

// secretHasKey reports whether a Secret template named name has key.
func secretHasKey(m manifests, name, key string) bool {
	for _, s := range m.secrets {
		if s.Name != name {
			continue
		}
		if _, ok := s.StringData[key]; ok {
			return true
		}
		if _, ok := s.Data[key]; ok {
			return true
		}
	}
	return false
}

func TestSecretTemplate(t *testing.T) {
	m := loadManifests(t)
	for _, s := range m.secrets {
		if len(s.Data) > 0 {
			t.Errorf("Secret %s: a template holds stringData only, not encoded data", s.Name)
		}
		for k, v := range s.StringData {
			if !strings.Contains(v, "CHANGE-ME") {
				t.Errorf("Secret %s: %s has no CHANGE-ME placeholder", s.Name, k)
			}
		}
	}
	// kubectl apply -f deploy/k8s/ must never apply the template over the real Secret
	entries, err := os.ReadDir("k8s")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if ext := filepath.Ext(e.Name()); !e.IsDir() && (ext == ".yaml" || ext == ".yml" || ext == ".json") {
			b, _ := os.ReadFile(filepath.Join("k8s", e.Name()))
			if regexp.MustCompile(`(?m)^kind:\s*Secret\s*$`).Match(b) {
				t.Errorf("k8s/%s holds a Secret: kubectl apply -f deploy/k8s/ would apply it", e.Name())
			}
		}
	}
}

// podsOf returns the Deployments whose pod template labels match selector
// (every key and value of selector among the labels).
func podsOf(m manifests, selector map[string]string) []*appsv1.Deployment {
	var out []*appsv1.Deployment
	if len(selector) == 0 {
		return nil
	}
	for _, d := range m.deployments {
		ok := true
		for k, v := range selector {
			if d.Spec.Template.Labels[k] != v {
				ok = false
			}
		}
		if ok {
			out = append(out, d)
		}
	}
	return out
}

func TestServices(t *testing.T) {
	m := loadManifests(t)
	headless := 0
	for _, s := range m.services {
		ds := podsOf(m, s.Spec.Selector)
		if len(ds) == 0 {
			t.Errorf("Service %s: selector %v matches no Deployment's pods", s.Name, s.Spec.Selector)
			continue
		}
		for _, d := range ds {
			for _, sp := range s.Spec.Ports {
				if _, ok := containerPort(d.Spec.Template.Spec.Containers[0], sp.TargetPort); !ok {
					t.Errorf("Service %s: port %s targets %s, not a port of %s's container", s.Name, sp.Name, sp.TargetPort.String(), d.Name)
				}
			}
		}
		if s.Spec.ClusterIP == corev1.ClusterIPNone {
			headless++
			if s.Spec.PublishNotReadyAddresses {
				t.Errorf("Service %s: a headless Service for forwarding must list ready pods only", s.Name)
			}
		}
	}
	if headless == 0 {
		t.Error("no headless Service (clusterIP: None) for node-to-node forwarding")
	}
}

func TestDisruptionBudget(t *testing.T) {
	m := loadManifests(t)
	for _, p := range m.pdbs {
		if p.Spec.Selector == nil || len(p.Spec.Selector.MatchExpressions) > 0 {
			t.Errorf("PodDisruptionBudget %s: want a matchLabels selector", p.Name)
			continue
		}
		ds := podsOf(m, p.Spec.Selector.MatchLabels)
		if len(ds) == 0 {
			t.Errorf("PodDisruptionBudget %s selects no Deployment's pods", p.Name)
		}
		for _, d := range ds {
			if p.Spec.MinAvailable != nil && p.Spec.MinAvailable.Type == intstr.Int && d.Spec.Replicas != nil &&
				p.Spec.MinAvailable.IntVal >= *d.Spec.Replicas {
				t.Errorf("PodDisruptionBudget %s: minAvailable %d of %d replicas lets no node drain", p.Name, p.Spec.MinAvailable.IntVal, *d.Spec.Replicas)
			}
		}
	}
}

const (
	annHashBy   = "nginx.ingress.kubernetes.io/upstream-hash-by"
	annDenylist = "nginx.ingress.kubernetes.io/denylist-source-range"
	annRegex    = "nginx.ingress.kubernetes.io/use-regex"
	annRead     = "nginx.ingress.kubernetes.io/proxy-read-timeout"
	annSend     = "nginx.ingress.kubernetes.io/proxy-send-timeout"
)

// hashByValid is what ingress-nginx accepts in upstream-hash-by (its
// annotation validator): nginx variables and text.
var hashByValid = regexp.MustCompile(`^[A-Za-z0-9\-_${}]*$`)

// ingressPath is one path of one Ingress rule.
type ingressPath struct {
	ing  *networkingv1.Ingress
	host string
	path networkingv1.HTTPIngressPath
}

func allPaths(m manifests) []ingressPath {
	var out []ingressPath
	for _, ing := range m.ingresses {
		for _, r := range ing.Spec.Rules {
			if r.HTTP == nil {
				continue
			}
			for _, p := range r.HTTP.Paths {
				out = append(out, ingressPath{ing, r.Host, p})
			}
		}
	}
	return out
}

// route returns the path that ingress-nginx picks for a request path on
// host: an Exact match first, else the longest matching Prefix.
func route(paths []ingressPath, host, reqPath string) (ingressPath, bool) {
	var best ingressPath
	found := false
	for _, p := range paths {
		if p.host != host || p.path.PathType == nil {
			continue
		}
		switch *p.path.PathType {
		case networkingv1.PathTypeExact:
			if p.path.Path == reqPath {
				return p, true
			}
		case networkingv1.PathTypePrefix:
			pre := strings.TrimSuffix(p.path.Path, "/")
			if (reqPath == pre || strings.HasPrefix(reqPath, pre+"/")) && (!found || len(p.path.Path) > len(best.path.Path)) {
				best, found = p, true
			}
		}
	}
	return best, found
}

func TestIngress(t *testing.T) {
	m := loadManifests(t)
	services := map[string]*corev1.Service{}
	for _, s := range m.services {
		services[s.Name] = s
	}
	hashBy := map[string]string{} // by backend (Service and port): ingress-nginx keeps one per upstream
	for _, p := range allPaths(m) {
		ing := p.ing
		where := fmt.Sprintf("Ingress %s, %s%s", ing.Name, p.host, p.path.Path)
		if ing.Spec.IngressClassName == nil || *ing.Spec.IngressClassName != "nginx" {
			t.Errorf("%s: ingressClassName is not nginx", where)
		}
		if p.path.PathType == nil || *p.path.PathType == networkingv1.PathTypeImplementationSpecific {
			t.Errorf("%s: pathType must be Exact or Prefix", where)
		}
		if _, ok := ing.Annotations[annRegex]; ok {
			t.Errorf("%s: use-regex changes every path of the host into a regex; the routing below assumes plain paths", where)
		}
		b := p.path.Backend.Service
		if b == nil {
			t.Errorf("%s: no Service backend", where)
			continue
		}
		s, ok := services[b.Name]
		if !ok {
			t.Errorf("%s: routes to Service %s, which does not exist", where, b.Name)
			continue
		}
		if s.Spec.ClusterIP == corev1.ClusterIPNone {
			t.Errorf("%s: routes to the headless Service %s", where, s.Name)
		}
		if b.Port.Name == "" {
			t.Errorf("%s: the backend port must be named (the Service port's name)", where)
		}
		var sp *corev1.ServicePort
		for i := range s.Spec.Ports {
			if (b.Port.Name != "" && s.Spec.Ports[i].Name == b.Port.Name) || (b.Port.Name == "" && s.Spec.Ports[i].Port == b.Port.Number) {
				sp = &s.Spec.Ports[i]
			}
		}
		if sp == nil {
			t.Errorf("%s: Service %s has no port %q", where, s.Name, b.Port.Name)
			continue
		}
		ds := podsOf(m, s.Spec.Selector)
		if len(ds) == 0 {
			t.Errorf("%s: Service %s selects no Deployment's pods", where, s.Name)
		}
		for _, d := range ds {
			cp, ok := containerPort(d.Spec.Template.Spec.Containers[0], sp.TargetPort)
			if !ok || cp.Name != sp.TargetPort.StrVal {
				t.Errorf("%s: Service %s port %s must target the container port by its name", where, s.Name, sp.Name)
			}
		}

		h := ing.Annotations[annHashBy]
		if h == "" || !hashByValid.MatchString(h) {
			t.Errorf("%s: upstream-hash-by %q: want an nginx variable ingress-nginx accepts", where, h)
		}
		key := b.Name + ":" + b.Port.Name
		if prev, ok := hashBy[key]; ok && prev != h {
			t.Errorf("%s: upstream-hash-by %q, another Ingress of %s says %q: ingress-nginx keeps only one", where, h, key, prev)
		}
		hashBy[key] = h
	}

	// the variable hashed on is the one the controller's http-snippet defines
	snippet := controllerSnippet(t, m)
	for key, h := range hashBy {
		v := strings.Trim(h, "${}")
		if !regexp.MustCompile(`(?m)^\s*map\s+\S+\s+\$` + regexp.QuoteMeta(v) + `\s*\{`).MatchString(snippet) {
			t.Errorf("%s hashes on %s, which the ingress-nginx http-snippet does not define", key, h)
		}
	}

	// WebSocket-friendly timeouts on the Ingress that serves the games
	paths := allPaths(m)
	for _, host := range hosts(paths) {
		for _, req := range []string{"/api/v1/games/abc/ws", "/api/v1/races/abc/ws", "/api/v1/arenas/abc/ws", "/"} {
			p, ok := route(paths, host, req)
			if !ok {
				t.Errorf("%s%s: no Ingress routes it", host, req)
				continue
			}
			for _, a := range []string{annRead, annSend} {
				if s, err := strconv.Atoi(p.ing.Annotations[a]); err != nil || s < 3600 {
					t.Errorf("%s%s: Ingress %s: %s %q, want at least 3600 (seconds) for WebSockets", host, req, p.ing.Name, a, p.ing.Annotations[a])
				}
			}
		}
	}
}

func hosts(paths []ingressPath) []string {
	var out []string
	for _, p := range paths {
		if !slices.Contains(out, p.host) {
			out = append(out, p.host)
		}
	}
	return out
}

// controllerSnippet returns the http-snippet of the ingress-nginx controller
// ConfigMap.
func controllerSnippet(t *testing.T, m manifests) string {
	t.Helper()
	for _, c := range m.configMaps {
		if s, ok := c.Data["http-snippet"]; ok {
			return s
		}
	}
	t.Fatal("no ConfigMap with the ingress-nginx http-snippet")
	return ""
}

// TestIngressDoesNotRouteMetrics checks that on every host /metrics (and its
// spellings that nginx normalizes to it) lands on a path whose Ingress refuses
// every client address.
func TestIngressDoesNotRouteMetrics(t *testing.T) {
	m := loadManifests(t)
	paths := allPaths(m)
	for _, host := range hosts(paths) {
		p, ok := route(paths, host, "/metrics")
		if !ok {
			continue // not routed at all
		}
		deny := map[string]bool{}
		for _, c := range strings.Split(p.ing.Annotations[annDenylist], ",") {
			if pr, err := netip.ParsePrefix(strings.TrimSpace(c)); err == nil {
				deny[pr.String()] = true
			}
		}
		if !deny["0.0.0.0/0"] || !deny["::/0"] {
			t.Errorf("%s/metrics is routed by Ingress %s (%s %s) to %s without refusing every address (denylist 0.0.0.0/0 and ::/0)",
				host, p.ing.Name, *p.path.PathType, p.path.Path, p.path.Backend.Service.Name)
		}
	}
}

// nginxMap returns the map block that defines $dsol_game in an nginx
// configuration, with its whitespace normalized.
func nginxMap(t *testing.T, conf string) string {
	t.Helper()
	re := regexp.MustCompile(`(?s)map\s+\$uri\s+\$dsol_game\s*\{[^}]*\}`)
	block := re.FindString(conf)
	if block == "" {
		t.Fatal("no map $uri $dsol_game { … }")
	}
	return strings.Join(strings.Fields(block), " ")
}

func TestNginxAndIngressRouteAlike(t *testing.T) {
	m := loadManifests(t)
	b, err := os.ReadFile("nginx/dsol.conf")
	if err != nil {
		t.Fatal(err)
	}
	conf := string(b)
	if got, want := nginxMap(t, controllerSnippet(t, m)), nginxMap(t, conf); got != want {
		t.Errorf("the ingress-nginx http-snippet and nginx/dsol.conf take the game id differently:\n%s\n%s", got, want)
	}
	if !regexp.MustCompile(`hash\s+\$dsol_game\s+consistent;`).MatchString(conf) {
		t.Error("nginx/dsol.conf: the upstream does not hash $dsol_game consistently")
	}
	if !regexp.MustCompile(`location\s*=\s*/metrics\s*\{\s*return\s+404;\s*\}`).MatchString(conf) {
		t.Error("nginx/dsol.conf: /metrics is not refused")
	}
	for _, want := range []string{"proxy_set_header Upgrade $http_upgrade;", "proxy_set_header Connection $connection_upgrade;"} {
		if !strings.Contains(conf, want) {
			t.Errorf("nginx/dsol.conf: no %q (WebSockets)", want)
		}
	}
	// the map (its regexes are nginx's PCRE; Go reads these alike) takes the
	// id of every kind of game path and of an arena's paths, "match" for the
	// quick-match queue, and spreads the rest (the request id)
	for path, want := range map[string]string{
		"/api/v1/games/g1":            "g1",
		"/api/v1/games/g1/ws":         "g1",
		"/api/v1/games/g1/actions":    "g1",
		"/api/v1/races/r2/join":       "r2",
		"/api/v1/races/r2/ws":         "r2",
		"/api/v1/arenas/a3":           "a3",
		"/api/v1/arenas/a3/ws":        "a3",
		"/api/v1/arenas/a3/join":      "a3",
		"/api/v1/arenas/a3/leave":     "a3",
		"/api/v1/arenas/a3/races":     "a3",
		"/api/v1/match":               "match",
		"/api/v1/match/ws":            "match",
		"/api/v1/arenas":              "$request_id",
		"/api/v1/arenas/":             "$request_id",
		"/api/v1/games":               "$request_id",
		"/api/v1/lobby/ws":            "$request_id",
		"/api/v1/matches":             "$request_id",
		"/api/v1/players/p1/arenas/x": "$request_id",
	} {
		if got := nginxRoute(t, conf, path); got != want {
			t.Errorf("%s: routed by %q, want %q", path, got, want)
		}
	}
}

// nginxRoute returns what the map $uri $dsol_game of an nginx configuration
// gives for path, as nginx evaluates it: the value of the first regex entry
// (~REGEX VALUE;) that matches, with $NAME standing for the regex's group of
// that name, else the default's value, as written ("$request_id").
func nginxRoute(t *testing.T, conf, path string) string {
	t.Helper()
	_, body, _ := strings.Cut(nginxMap(t, conf), "{")
	def := ""
	for _, entry := range strings.Split(strings.TrimSuffix(body, "}"), ";") {
		f := strings.Fields(entry)
		if len(f) != 2 {
			continue
		}
		if f[0] == "default" {
			def = f[1]
			continue
		}
		src, ok := strings.CutPrefix(f[0], "~")
		if !ok {
			continue
		}
		re, err := regexp.Compile(src)
		if err != nil {
			t.Fatalf("nginx map regex %s: %v", src, err)
		}
		m := re.FindStringSubmatch(path)
		if m == nil {
			continue
		}
		if name, ok := strings.CutPrefix(f[1], "$"); ok {
			i := re.SubexpIndex(name)
			if i < 0 {
				t.Fatalf("nginx map regex %s has no group %s", src, name)
			}
			return m[i]
		}
		return f[1]
	}
	if def == "" {
		t.Fatal("nginx map: no default")
	}
	return def
}
