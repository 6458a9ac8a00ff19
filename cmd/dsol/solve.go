package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"dsol/internal/cards"
	"dsol/internal/cli"
	k "dsol/internal/klondike"
	"dsol/internal/sampling"
	"dsol/internal/solver/tally"
)

// solveConfig is the command line of dsol solve: one code, or a sample.
type solveConfig struct {
	code      cards.Code    // one game (sample == 0)
	budget    time.Duration // 0: no time bound (only with positions)
	positions int64         // 0: no bound on positions
	beam      int           // a beam search of this width (0: the depth-first search)
	beams     bool          // no --beam: single-pass deals by beams, then depth first (a sample: a Vegas one)
	sample    int           // deals in the sample; 0: solve code
	draw      int           // sample: 1 or 3
	vegas     bool          // sample: Vegas scoring
	seed      uint64        // sample: the seed of the deal numbers
	json      bool          // sample: print the report as JSON
	workers   int           // sample: one per CPU unless told
	out       string        // sample: the verdict file to append to and go on from
	from      []string      // sample: verdict files of other modes to carry verdicts from
}

// options are the solver's options of a deal started at start: the
// position budget, and the time budget as a stop.
func (c solveConfig) options(start time.Time) tally.Options {
	opt := tally.Options{MaxPositions: c.positions, Beam: c.beam, Beams: c.beams}
	if c.budget > 0 {
		opt.Spent = func() float64 { return float64(time.Since(start)) / float64(c.budget) }
	}
	return opt
}

// files is a flag that may be given more than once.
type files []string

func (f *files) String() string     { return strings.Join(*f, ",") }
func (f *files) Set(s string) error { *f = append(*f, s); return nil }

const solveUsage = `usage: dsol solve <code> [--budget DURATION] [--positions N] [--beam W]
       dsol solve --sample N --draw 1|3 --scoring normal|vegas [--budget DURATION] [--positions N] [--beam W] [--seed S] [--workers W] [--out FILE] [--from FILE]... [--json]

Solves a solo deal with full information (every face-down and stock card
seen) and prints {"code", "result": "won"|"unwinnable"|"unknown", "moves",
"positions", "ms"} as JSON: for "won", the actions that win a new game of
the code; "unwinnable" is proved; "unknown" means the budget ran out.
--positions bounds each search by positions instead of time (then with no
time bound unless --budget is given too), so the verdicts do not depend on
the machine or its load. A single-pass (Vegas) deal is searched first by
beams of growing width, which find most wins far sooner, then depth first,
which proves the losses. --beam W searches with one beam of W positions a
level only, which proves a loss only by the check for dead cards made
before any search; --beam 0 depth first only (a Normal deal always is).
With --sample, solves N random DS1 deals of one mode (the same deal numbers
in every mode for a seed) and reports the counts, the win rate's bounds
with 95% confidence intervals, the times and the positions searched per
second. --out FILE appends each verdict to FILE as it is found, and a rerun
with the same FILE goes on from there; --from FILE carries over what the
verdicts of another mode's sample of the same seed prove (a win at draw 3
is one at draw 1, a win in Vegas one in Normal, and the other way round for
proofs that no win exists); a file of the same mode carries its own
verdicts, so that a beam searches only what the depth-first search left
unknown.

flags:
`

// parseSolve reads the command line of dsol solve.
func parseSolve(args []string, stderr io.Writer) (solveConfig, error) {
	fs := cli.NewFlags("solve", solveUsage, stderr)
	c := solveConfig{workers: runtime.NumCPU()}
	var scoring string
	fs.DurationVar(&c.budget, "budget", 2*time.Second, "time for each deal; the result is unknown when it runs out")
	fs.Int64Var(&c.positions, "positions", 0, "positions for each deal (0: no bound); without --budget, no time bound then")
	fs.IntVar(&c.beam, "beam", 0, "search with one beam of this width only (0: depth first only); it proves no loss by search (default: Vegas deals by beams, then depth first)")
	fs.IntVar(&c.workers, "workers", c.workers, "sample: searches at once")
	fs.IntVar(&c.sample, "sample", 0, "solve this many random DS1 deals instead of one code")
	fs.IntVar(&c.draw, "draw", 1, "sample: draw 1 or 3")
	fs.StringVar(&scoring, "scoring", "normal", "sample: normal (unlimited recycles) or vegas (a single pass)")
	fs.Uint64Var(&c.seed, "seed", 1, "sample: the seed of the deal numbers")
	fs.BoolVar(&c.json, "json", false, "sample: print the report as JSON")
	fs.StringVar(&c.out, "out", "", "sample: the verdict file to append to, and to go on from")
	fs.Var((*files)(&c.from), "from", "sample: a verdict file of another mode to carry verdicts from (repeatable)")
	// The code may come before the flags or after them.
	var code string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		code, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, cli.Usagef("solve: %v", err)
	}
	rest := fs.Args()
	if code == "" && len(rest) > 0 {
		code, rest = rest[0], rest[1:]
	}
	if len(rest) > 0 {
		return c, cli.Usagef("solve takes one game code (got also %q)", rest[0])
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if c.budget <= 0 {
		return c, cli.Usagef("solve: --budget must be positive")
	}
	if c.positions < 0 {
		return c, cli.Usagef("solve: --positions must be positive")
	}
	if c.positions > 0 && !set["budget"] {
		c.budget = 0
	}
	if c.beam < 0 {
		return c, cli.Usagef("solve: --beam must be positive")
	}
	c.beams = !set["beam"]
	if c.workers < 1 {
		return c, cli.Usagef("solve: --workers must be at least 1")
	}
	if !set["sample"] {
		for _, name := range []string{"draw", "scoring", "seed", "json", "workers", "out", "from"} {
			if set[name] {
				return c, cli.Usagef("solve: --%s goes with --sample", name)
			}
		}
		if code == "" {
			return c, cli.Usagef("solve takes a solo game code, such as DS1-D1N-AAAAAAB, or --sample N")
		}
		parsed, err := cards.ParseCode(code)
		if err != nil {
			return c, cli.Usagef("%v", err)
		}
		if parsed.Kind != cards.Solo {
			return c, cli.Usagef("solve: %s is a race code; solve takes solo codes (DS1, DS2)", parsed)
		}
		c.code = parsed
		return c, nil
	}
	if code != "" {
		return c, cli.Usagef("solve: give a game code or --sample, not both")
	}
	if c.sample < 1 {
		return c, cli.Usagef("solve: --sample must be at least 1")
	}
	if c.draw != 1 && c.draw != 3 {
		return c, cli.Usagef("solve: --draw must be 1 or 3")
	}
	switch scoring {
	case "normal":
	case "vegas":
		c.vegas = true
	default:
		return c, cli.Usagef("solve: --scoring must be normal or vegas")
	}
	c.beams = c.beams && c.vegas // Normal deals are searched depth first either way
	return c, nil
}

// solveOutput is what dsol solve prints for one code.
type solveOutput struct {
	Code      string      `json:"code"`
	Result    string      `json:"result"`
	Moves     []k.Action  `json:"moves"`
	Positions int64       `json:"positions"`
	MS        json.Number `json:"ms"`
}

// runSolve is dsol solve.
func runSolve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseSolve(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if c.sample > 0 {
		return runSample(ctx, c, stdout, stderr)
	}
	start := time.Now()
	res := tally.New().SolveCode(c.code, c.options(start))
	out := solveOutput{
		Code:      c.code.String(),
		Result:    res.Verdict.String(),
		Moves:     res.Moves,
		Positions: res.Positions,
		MS:        sampling.Millis(time.Since(start)),
	}
	if out.Moves == nil {
		out.Moves = []k.Action{}
	}
	return json.NewEncoder(stdout).Encode(out)
}

// sampleResult is one solved deal of a sample.
type sampleResult = verdict

// sampleReport is the summary of a sample, as --json prints it.
type sampleReport struct {
	Mode     string      `json:"mode"` // such as D1N
	Deals    int         `json:"deals"`
	Seed     uint64      `json:"seed"`
	BudgetMS json.Number `json:"budget_ms"` // 0: no time bound
	// BudgetPositions is the position budget of each deal (0: none).
	BudgetPositions int64 `json:"budget_positions"`
	// Beam is the width of the beam search (--beam; 0: depth first).
	Beam int `json:"beam"`
	// Beams: the deals were searched by beams of growing width, then
	// depth first (a Vegas sample without --beam).
	Beams      bool `json:"beams"`
	Workers    int  `json:"workers"`
	Won        int  `json:"won"`
	Unwinnable int  `json:"unwinnable"`
	Unknown    int  `json:"unknown"`
	// Carried counts the verdicts carried over from other modes (--from),
	// which the counts above include.
	Carried int `json:"carried"`
	// Resumed counts the verdicts read back from the --out file of an
	// earlier run, which the counts, times and positions include.
	Resumed int `json:"resumed"`
	// The win rate lies between WinLow = won/N and WinHigh = (won +
	// unknown)/N; each bound comes with its 95% Wilson interval.
	WinLow    float64    `json:"win_rate_low"`
	WinLowCI  [2]float64 `json:"win_rate_low_ci"`
	WinHigh   float64    `json:"win_rate_high"`
	WinHighCI [2]float64 `json:"win_rate_high_ci"`
	// The times are of the deals solved, not of those carried over.
	MedianMS        json.Number `json:"median_ms"`
	P95MS           json.Number `json:"p95_ms"`
	Positions       int64       `json:"positions"`
	PositionsPerSec int64       `json:"positions_per_second"` // this run's searches over its wall time, all workers
	WallMS          json.Number `json:"wall_ms"`
}

// runSample solves the deals of a sample with the workers and prints the
// report. With --out, the verdicts already in the file are kept and each
// new one is appended as it is found; with --from, verdicts carried over
// from other modes are taken as they are (and appended too).
func runSample(ctx context.Context, c solveConfig, stdout, stderr io.Writer) error {
	codes := sampling.Codes(c.seed, c.sample, c.draw, c.vegas)
	results := make([]sampleResult, len(codes))
	have := make([]bool, len(codes))
	var file io.Writer = io.Discard
	if c.out != "" {
		f, done, err := openVerdicts(c)
		if err != nil {
			return err
		}
		defer f.Close()
		file = f
		for i, code := range codes {
			s := code.String()
			if v, ok := done[s[len(s)-7:]]; ok {
				v.resumed = true
				results[i], have[i] = v, true
			}
		}
	}
	carry, err := carried(c, codes)
	if err != nil {
		return err
	}
	var mu sync.Mutex
	var fileErr error
	record := func(i int, v verdict) {
		results[i], have[i] = v, true
		if _, err := io.WriteString(file, verdictLine(codes[i], v)); err != nil && fileErr == nil {
			fileErr = fmt.Errorf("solve: %w", err)
		}
	}
	var todo []int
	for i := range codes {
		switch v, ok := carry[i]; {
		case have[i]:
		case ok:
			record(i, v)
		default:
			todo = append(todo, i)
		}
	}
	next := make(chan int)
	var done sync.WaitGroup
	finished := len(codes) - len(todo)
	progress := cli.IsTerminal(stderr)
	start := time.Now()
	lastShown := time.Time{}
	for range c.workers {
		done.Go(func() {
			s := tally.New()
			for i := range next {
				t0 := time.Now()
				res := s.SolveCode(codes[i], c.options(t0))
				v := verdict{v: res.Verdict, positions: res.Positions, elapsed: time.Since(t0)}
				mu.Lock()
				record(i, v)
				finished++
				if progress && (time.Since(lastShown) > 200*time.Millisecond || finished == len(codes)) {
					lastShown = time.Now()
					fmt.Fprintf(stderr, "\r%d/%d deals ", finished, len(codes))
				}
				mu.Unlock()
			}
		})
	}
	n := sampling.Feed(ctx, next, todo)
	done.Wait()
	if progress {
		fmt.Fprintln(stderr)
	}
	if fileErr != nil {
		return fileErr
	}
	if n < len(todo) {
		return fmt.Errorf("solve: interrupted with %d of %d deals decided or out of budget", len(codes)-len(todo)+n, len(codes))
	}
	rep := summarise(c, results, time.Since(start))
	if c.json {
		return json.NewEncoder(stdout).Encode(rep)
	}
	return writeReport(stdout, rep)
}

// summarise computes the report of a sample's results.
func summarise(c solveConfig, results []sampleResult, wall time.Duration) sampleReport {
	rep := sampleReport{
		Mode:            sampling.Mode(c.draw, c.vegas),
		Deals:           len(results),
		Seed:            c.seed,
		BudgetMS:        sampling.Millis(c.budget),
		BudgetPositions: c.positions,
		Beam:            c.beam,
		Beams:           c.beams,
		Workers:         c.workers,
		WallMS:          sampling.Millis(wall),
	}
	times := make([]time.Duration, 0, len(results))
	var searched int64 // positions searched by this run
	for _, r := range results {
		switch r.v {
		case tally.Won:
			rep.Won++
		case tally.Unwinnable:
			rep.Unwinnable++
		default:
			rep.Unknown++
		}
		if r.from != "" {
			rep.Carried++
			continue
		}
		times = append(times, r.elapsed)
		rep.Positions += r.positions
		if r.resumed {
			rep.Resumed++
		} else {
			searched += r.positions
		}
	}
	slices.Sort(times)
	n := len(results)
	rep.MedianMS = sampling.Millis(sampling.Quantile(times, 0.5))
	rep.P95MS = sampling.Millis(sampling.Quantile(times, 0.95))
	if wall > 0 {
		rep.PositionsPerSec = int64(float64(searched) / wall.Seconds())
	}
	rep.WinLow = sampling.Round(float64(rep.Won) / float64(n))
	rep.WinHigh = sampling.Round(float64(rep.Won+rep.Unknown) / float64(n))
	lo, hi := sampling.Wilson(rep.Won, n), sampling.Wilson(rep.Won+rep.Unknown, n)
	rep.WinLowCI = [2]float64{sampling.Round(lo[0]), sampling.Round(lo[1])}
	rep.WinHighCI = [2]float64{sampling.Round(hi[0]), sampling.Round(hi[1])}
	return rep
}

// writeReport prints a sample's report for people.
func writeReport(w io.Writer, r sampleReport) error {
	pct := func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
	budget := r.BudgetMS.String() + " ms"
	switch {
	case r.BudgetPositions > 0 && r.BudgetMS.String() == "0.0":
		budget = fmt.Sprintf("%d positions", r.BudgetPositions)
	case r.BudgetPositions > 0:
		budget = fmt.Sprintf("%d positions or %s ms", r.BudgetPositions, r.BudgetMS)
	}
	switch {
	case r.Beam > 0:
		budget += fmt.Sprintf(" (a beam of %d)", r.Beam)
	case r.Beams:
		budget += " (beams, then depth first)"
	}
	workers := fmt.Sprintf("%d workers", r.Workers)
	if r.Workers == 1 {
		workers = "1 worker"
	}
	_, err := fmt.Fprintf(w, `sample      %d DS1-%s deals, seed %d, budget %s each, %s
won         %d
unwinnable  %d
unknown     %d
carried     %d (from other modes' verdicts)
resumed     %d (from the verdict file of an earlier run)
win rate    at least %s (95%% CI %s–%s), at most %s (95%% CI %s–%s)
time        median %s ms, p95 %s ms a deal; this run %s ms
positions   %d; this run %d/s on all workers
`, r.Deals, r.Mode, r.Seed, budget, workers, r.Won, r.Unwinnable, r.Unknown, r.Carried, r.Resumed,
		pct(r.WinLow), pct(r.WinLowCI[0]), pct(r.WinLowCI[1]), pct(r.WinHigh), pct(r.WinHighCI[0]), pct(r.WinHighCI[1]),
		r.MedianMS, r.P95MS, r.WallMS, r.Positions, r.PositionsPerSec)
	return err
}
