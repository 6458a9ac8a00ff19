package static

import (
	"regexp"
	"strconv"
	"strings"
)

// negotiate picks among reps (identity first) the one Accept-Encoding
// prefers (RFC 9110, 12.5.3): the highest q-value, and of equal ones the
// smallest body. No Accept-Encoding at all means identity, which is what
// a client that names nothing (curl, a probe) can read. ok is false when
// every representation is refused ("identity;q=0" or "*;q=0" and no coding
// the file has).
func negotiate(header []string, reps []representation) (rep representation, ok bool) {
	if len(header) == 0 {
		return reps[0], true
	}
	q := parseAccept(header)
	best := -1.0
	for _, r := range reps {
		v := q.of(r.coding)
		if v <= 0 {
			continue
		}
		if v > best || v == best && len(r.body) < len(rep.body) {
			rep, best, ok = r, v, true
		}
	}
	return rep, ok
}

// acceptance is the q-value of each coding an Accept-Encoding names, "*"
// included.
type acceptance map[string]float64

// parseAccept reads every Accept-Encoding line. An element with a malformed
// q-value is left out, as if it were not there. "x-gzip" is gzip.
func parseAccept(header []string) acceptance {
	q := acceptance{}
	for _, line := range header {
		for _, el := range strings.Split(line, ",") {
			coding, params, _ := strings.Cut(el, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding == "" {
				continue
			}
			if coding == "x-gzip" {
				coding = "gzip"
			}
			v, ok := qValue(params)
			if !ok {
				continue
			}
			if old, seen := q[coding]; !seen || v > old {
				q[coding] = v
			}
		}
	}
	return q
}

// qvalue is the grammar of a weight: 0 to 1 with at most three decimals.
var qvalue = regexp.MustCompile(`^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$`)

// qValue reads the q parameter among params ("q=0.5", "level=1;q=0");
// without one the weight is 1.
func qValue(params string) (float64, bool) {
	for _, p := range strings.Split(params, ";") {
		name, val, _ := strings.Cut(strings.TrimSpace(p), "=")
		if !strings.EqualFold(strings.TrimSpace(name), "q") {
			continue
		}
		val = strings.TrimSpace(val)
		if !qvalue.MatchString(val) {
			return 0, false
		}
		v, _ := strconv.ParseFloat(val, 64)
		return v, true
	}
	return 1, true
}

// of is the q-value of a coding: its own, else that of "*", else 0 for
// the codings not named. identity not named is acceptable (RFC 9110) but
// comes last: a client that names only "br;q=0.5, gzip;q=0.6" wants one of
// them.
func (q acceptance) of(coding string) float64 {
	if v, ok := q[coding]; ok {
		return v
	}
	if v, ok := q["*"]; ok {
		return v
	}
	if coding == identity {
		return lastResort
	}
	return 0
}

// lastResort is below every q-value a client can write (0.001 at least).
const lastResort = 0.0001
