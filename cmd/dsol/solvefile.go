package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"dsol/internal/cards"
	"dsol/internal/sampling"
	"dsol/internal/solver/tally"
)

// A verdict file keeps a sample's verdicts, one line per deal as each is
// decided, so that a long run can stop at any time and a rerun with the same
// file goes on where it stopped:
//
//	# dsol solve --sample verdicts: deal LETTERS VERDICT POSITIONS MS [from MODE]
//	sample D1V seed 1 positions 1000000 budget_ms 0
//	deal QWERTYZ unwinnable 523456 812.3
//	deal ASDFGHJ won 0 0.0 from D3V
//
// "from MODE" marks a verdict carried over from another mode's file of the
// same deal (see tally.Transfer). A line cut short by a crash is ignored.
const verdictHeader = "# dsol solve --sample verdicts: deal LETTERS VERDICT POSITIONS MS [from MODE]\n"

// verdict is one line of a verdict file.
type verdict struct {
	v         tally.Verdict
	positions int64
	elapsed   time.Duration
	from      string // the mode it was carried over from, or ""
	resumed   bool   // read back from the --out file of an earlier run
}

// sampleLine is a verdict file's second line: what the verdicts are of.
func (c solveConfig) sampleLine() string {
	line := fmt.Sprintf("sample %s seed %d positions %d budget_ms %d", sampling.Mode(c.draw, c.vegas), c.seed, c.positions, c.budget.Milliseconds())
	switch {
	case c.beam > 0:
		line += fmt.Sprintf(" beam %d", c.beam)
	case c.beams:
		line += " beams"
	}
	return line
}

// readVerdicts reads a verdict file: the sample line and the verdicts by
// deal letters, and whether it ends in a newline (torn is false for a
// missing or empty file, which reads as an empty one).
func readVerdicts(path string) (sample string, out map[string]verdict, torn bool, err error) {
	out = map[string]verdict{}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", out, false, nil
	}
	if err != nil {
		return "", nil, false, err
	}
	torn = len(data) > 0 && data[len(data)-1] != '\n'
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "sample "):
			sample = line
		case strings.HasPrefix(line, "deal "):
			if d, v, ok := parseVerdict(line); ok {
				out[d] = v
			}
		}
	}
	return sample, out, torn, sc.Err()
}

// parseVerdict reads a "deal" line; ok is false for a malformed one (a line
// cut short).
func parseVerdict(line string) (deal string, v verdict, ok bool) {
	f := strings.Fields(line)
	if len(f) != 5 && len(f) != 7 {
		return "", v, false
	}
	switch f[2] {
	case "won":
		v.v = tally.Won
	case "unwinnable":
		v.v = tally.Unwinnable
	case "unknown":
		v.v = tally.Unknown
	default:
		return "", v, false
	}
	p, err1 := strconv.ParseInt(f[3], 10, 64)
	ms, err2 := strconv.ParseFloat(f[4], 64)
	if err1 != nil || err2 != nil || len(f[1]) != 7 || (len(f) == 7 && f[5] != "from") {
		return "", v, false
	}
	v.positions, v.elapsed = p, time.Duration(ms*float64(time.Millisecond))
	if len(f) == 7 {
		v.from = f[6]
	}
	return f[1], v, true
}

// verdictLine writes a "deal" line.
func verdictLine(code cards.Code, v verdict) string {
	s := code.String()
	line := fmt.Sprintf("deal %s %s %d %s", s[len(s)-7:], v.v, v.positions, sampling.Millis(v.elapsed))
	if v.from != "" {
		line += " from " + v.from
	}
	return line + "\n"
}

// openVerdicts opens a sample's verdict file for appending, writing its
// header when it is new, and returns the verdicts it already holds. A file
// of another sample is an error.
func openVerdicts(c solveConfig) (io.WriteCloser, map[string]verdict, error) {
	sample, done, torn, err := readVerdicts(c.out)
	if err != nil {
		return nil, nil, fmt.Errorf("solve: %w", err)
	}
	if sample != "" && sample != c.sampleLine() {
		return nil, nil, fmt.Errorf("solve: %s holds the verdicts of another sample (%q, not %q)", c.out, sample, c.sampleLine())
	}
	f, err := os.OpenFile(c.out, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("solve: %w", err)
	}
	head := ""
	if torn {
		head = "\n" // a line cut short stays alone, and is ignored
	}
	if sample == "" {
		head += verdictHeader + c.sampleLine() + "\n"
	}
	if _, err := io.WriteString(f, head); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("solve: %w", err)
	}
	return f, done, nil
}

// carried returns, for each code of a sample, the verdict that the verdict
// files of other modes (the --from files) prove for it, if any: a deal is
// looked up by its letters, and the rules are tally.Transfer's.
func carried(c solveConfig, codes []cards.Code) (map[int]verdict, error) {
	out := map[int]verdict{}
	for _, path := range c.from {
		sample, vs, _, err := readVerdicts(path)
		if err != nil {
			return nil, fmt.Errorf("solve: %w", err)
		}
		f := strings.Fields(sample)
		if len(f) < 4 || f[0] != "sample" {
			return nil, fmt.Errorf("solve: %s is not a verdict file", path)
		}
		mode := f[1]
		for i, code := range codes {
			s := code.String()
			v, ok := vs[s[len(s)-7:]]
			if !ok || v.v == tally.Unknown {
				continue
			}
			src, err := cards.ParseCode("DS1-" + mode + "-" + s[len(s)-7:])
			if err != nil {
				return nil, fmt.Errorf("solve: %s: %w", path, err)
			}
			if t := tally.Transfer(src, v.v, code); t != tally.Unknown {
				if _, seen := out[i]; !seen {
					out[i] = verdict{v: t, from: mode}
				}
			}
		}
	}
	return out, nil
}
