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
	"dsol/internal/solver"
)

// solveConfig is the command line of dsol solve: one code, or a sample.
type solveConfig struct {
	code      cards.Code    // one game (sample == 0)
	budget    time.Duration // 0: no time bound (only with positions)
	positions int64         // 0: no bound on positions
	sample    int           // deals in the sample; 0: solve code
	draw      int           // sample: 1 or 3
	vegas     bool          // sample: Vegas scoring
	seed      uint64        // sample: the seed of the deal numbers
	json      bool          // sample: print the report as JSON
	workers   int           // sample: one per CPU unless told
}

// options are the solver's options of each deal: the time and position
// budgets, on the restarting schedule (whole deals are what it is for).
func (c solveConfig) options() solver.Options {
	return solver.Options{MaxTime: c.budget, MaxPositions: c.positions, Restarts: true}
}

const solveUsage = `usage: dsol solve <code> [--budget DURATION] [--positions N]
       dsol solve --sample N --draw 1|3 --scoring normal|vegas [--budget DURATION] [--positions N] [--seed S] [--workers W] [--json]

Solves a solo deal with full information (every face-down and stock card
seen) and prints {"code", "result": "won"|"unwinnable"|"unknown", "moves",
"positions", "ms"} as JSON: for "won", the actions that win a new game of
the code; "unwinnable" is proved; "unknown" means the budget ran out.
--positions bounds each search by positions instead of time (then with no
time bound unless --budget is given too), so the verdicts do not depend on
the machine or its load.
With --sample, solves N random DS1 deals of one mode on every CPU and
reports the counts, the win rate's bounds with 95% confidence intervals, the
times and the positions searched per second.

flags:
`

// parseSolve reads the command line of dsol solve.
func parseSolve(args []string, stderr io.Writer) (solveConfig, error) {
	fs := cli.NewFlags("solve", solveUsage, stderr)
	c := solveConfig{workers: runtime.NumCPU()}
	var scoring string
	fs.DurationVar(&c.budget, "budget", 2*time.Second, "time for each deal; the result is unknown when it runs out")
	fs.Int64Var(&c.positions, "positions", 0, "positions for each deal (0: no bound); without --budget, no time bound then")
	fs.IntVar(&c.workers, "workers", c.workers, "sample: searches at once")
	fs.IntVar(&c.sample, "sample", 0, "solve this many random DS1 deals instead of one code")
	fs.IntVar(&c.draw, "draw", 1, "sample: draw 1 or 3")
	fs.StringVar(&scoring, "scoring", "normal", "sample: normal (unlimited recycles) or vegas (a single pass)")
	fs.Uint64Var(&c.seed, "seed", 1, "sample: the seed of the deal numbers")
	fs.BoolVar(&c.json, "json", false, "sample: print the report as JSON")
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
	if c.workers < 1 {
		return c, cli.Usagef("solve: --workers must be at least 1")
	}
	if !set["sample"] {
		for _, name := range []string{"draw", "scoring", "seed", "json", "workers"} {
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
	res := solver.New().SolveCode(c.code, c.options())
	out := solveOutput{
		Code:      c.code.String(),
		Result:    res.Verdict.String(),
		Moves:     res.Moves,
		Positions: res.Positions,
		MS:        sampling.Millis(res.Elapsed),
	}
	if out.Moves == nil {
		out.Moves = []k.Action{}
	}
	return json.NewEncoder(stdout).Encode(out)
}

// sampleResult is one solved deal of a sample.
type sampleResult struct {
	verdict   solver.Verdict
	elapsed   time.Duration
	positions int64
}

// sampleReport is the summary of a sample, as --json prints it.
type sampleReport struct {
	Mode     string      `json:"mode"` // such as D1N
	Deals    int         `json:"deals"`
	Seed     uint64      `json:"seed"`
	BudgetMS json.Number `json:"budget_ms"` // 0: no time bound
	// BudgetPositions is the position budget of each deal (0: none).
	BudgetPositions int64 `json:"budget_positions"`
	Workers         int   `json:"workers"`
	Won             int   `json:"won"`
	Unwinnable      int   `json:"unwinnable"`
	Unknown         int   `json:"unknown"`
	// The win rate lies between WinLow = won/N and WinHigh = (won +
	// unknown)/N; each bound comes with its 95% Wilson interval.
	WinLow          float64     `json:"win_rate_low"`
	WinLowCI        [2]float64  `json:"win_rate_low_ci"`
	WinHigh         float64     `json:"win_rate_high"`
	WinHighCI       [2]float64  `json:"win_rate_high_ci"`
	MedianMS        json.Number `json:"median_ms"`
	P95MS           json.Number `json:"p95_ms"`
	Positions       int64       `json:"positions"`
	PositionsPerSec int64       `json:"positions_per_second"` // over the wall time, all workers
	WallMS          json.Number `json:"wall_ms"`
}

// runSample solves the deals of a sample with a worker per CPU and prints
// the report.
func runSample(ctx context.Context, c solveConfig, stdout, stderr io.Writer) error {
	codes := sampling.Codes(c.seed, c.sample, c.draw, c.vegas)
	results := make([]sampleResult, len(codes))
	next := make(chan int)
	var done sync.WaitGroup
	var mu sync.Mutex
	var counts [3]int
	finished := 0
	progress := cli.IsTerminal(stderr)
	start := time.Now()
	lastShown := time.Time{}
	for range c.workers {
		done.Go(func() {
			s := solver.New()
			for i := range next {
				res := s.SolveCode(codes[i], c.options())
				results[i] = sampleResult{verdict: res.Verdict, elapsed: res.Elapsed, positions: res.Positions}
				mu.Lock()
				counts[res.Verdict]++
				finished++
				if progress && (time.Since(lastShown) > 200*time.Millisecond || finished == len(codes)) {
					lastShown = time.Now()
					fmt.Fprintf(stderr, "\r%d/%d: won %d, unwinnable %d, unknown %d ", finished, len(codes),
						counts[solver.Won], counts[solver.Unwinnable], counts[solver.Unknown])
				}
				mu.Unlock()
			}
		})
	}
	n := sampling.Feed(ctx, next, indexes(len(codes)))
	done.Wait()
	if progress {
		fmt.Fprintln(stderr)
	}
	if n < len(codes) {
		return fmt.Errorf("solve: interrupted after %d of %d deals", n, len(codes))
	}
	rep := summarise(c, results, time.Since(start))
	if c.json {
		return json.NewEncoder(stdout).Encode(rep)
	}
	return writeReport(stdout, rep)
}

// indexes returns 0, 1, …, n-1.
func indexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// summarise computes the report of a sample's results.
func summarise(c solveConfig, results []sampleResult, wall time.Duration) sampleReport {
	rep := sampleReport{
		Mode:            sampling.Mode(c.draw, c.vegas),
		Deals:           len(results),
		Seed:            c.seed,
		BudgetMS:        sampling.Millis(c.budget),
		BudgetPositions: c.positions,
		Workers:         c.workers,
		WallMS:          sampling.Millis(wall),
	}
	times := make([]time.Duration, len(results))
	for i, r := range results {
		switch r.verdict {
		case solver.Won:
			rep.Won++
		case solver.Unwinnable:
			rep.Unwinnable++
		default:
			rep.Unknown++
		}
		times[i] = r.elapsed
		rep.Positions += r.positions
	}
	slices.Sort(times)
	n := len(results)
	rep.MedianMS = sampling.Millis(sampling.Quantile(times, 0.5))
	rep.P95MS = sampling.Millis(sampling.Quantile(times, 0.95))
	if wall > 0 {
		rep.PositionsPerSec = int64(float64(rep.Positions) / wall.Seconds())
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
	_, err := fmt.Fprintf(w, `sample      %d DS1-%s deals, seed %d, budget %s each, %d workers
won         %d
unwinnable  %d
unknown     %d
win rate    at least %s (95%% CI %s–%s), at most %s (95%% CI %s–%s)
time        median %s ms, p95 %s ms, all %s ms
positions   %d, %d/s on all workers
`, r.Deals, r.Mode, r.Seed, budget, r.Workers, r.Won, r.Unwinnable, r.Unknown,
		pct(r.WinLow), pct(r.WinLowCI[0]), pct(r.WinLowCI[1]), pct(r.WinHigh), pct(r.WinHighCI[0]), pct(r.WinHighCI[1]),
		r.MedianMS, r.P95MS, r.WallMS, r.Positions, r.PositionsPerSec)
	return err
}
