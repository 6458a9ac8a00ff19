package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"dsol/internal/cli"
	"dsol/internal/solver"
	"dsol/internal/solver/tally"
	"dsol/internal/winnable"
)

// listConfig is the command line of dsol winnable.
type listConfig struct {
	mode    winnable.Mode
	solver  string        // winnable.Tally or winnable.Whole
	beam    int           // the tally solver's beam width (0: depth first)
	count   int           // stop once the list holds this many deals
	budget  int64         // positions per deal
	seed    uint64        // the seed of the stream of deal numbers
	limit   time.Duration // stop after this long (0: no bound)
	workers int
	out     string
}

const winnableUsage = `usage: dsol winnable --mode D1N|D3N|D1V|D3V --out FILE [--count N] [--budget POSITIONS] [--seed S] [--solver tally|whole] [--beam W] [--for DURATION] [--workers W]

Makes a list of winnable deals of a mode that the server ships
(internal/winnable/deals/MODE.txt for seed 1, MODE-SEED.txt for another
seed; a mode deals all its lists): solves the deal numbers of the mode's
stream for the seed one after the other, each with a budget of positions
(so that the result is the same on any machine), checks every win through
the solo engine, and keeps the first --count wins. --beam W has the tally
solver search with a beam of W positions a level (which wins Vegas deals
far sooner) instead of depth first. When FILE already holds a list of the
same mode, solver, beam, budget and seed it goes on from where that
one stopped; a list of others that holds no deal is started again. The
file is written every 30 s and at the end; --for and an interrupt end the
run early with the deals found so far.

flags:
`

// parseWinnable reads the command line of dsol winnable.
func parseWinnable(args []string, stderr io.Writer) (listConfig, error) {
	fs := cli.NewFlags("winnable", winnableUsage, stderr)
	c := listConfig{}
	var mode string
	fs.StringVar(&mode, "mode", "", "the mode: D1N, D3N, D1V or D3V")
	fs.StringVar(&c.out, "out", "", "the list file to write (and to go on from)")
	fs.IntVar(&c.count, "count", 1000, "stop once the list holds this many deals")
	fs.Int64Var(&c.budget, "budget", winnable.DefaultBudget, "the solver's budget for each deal, in positions")
	fs.Uint64Var(&c.seed, "seed", 1, "the seed of the stream of deal numbers")
	fs.StringVar(&c.solver, "solver", winnable.Tally, "the solver: tally (tallied positions) or whole (whole boards)")
	fs.IntVar(&c.beam, "beam", 0, "the tally solver's beam width (0: depth first)")
	fs.DurationVar(&c.limit, "for", 0, "stop after this long with the deals found so far (0: no bound)")
	fs.IntVar(&c.workers, "workers", runtime.NumCPU(), "searches at once")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, cli.Usagef("winnable: %v", err)
	}
	if fs.NArg() > 0 {
		return c, cli.Usagef("winnable takes only flags (got %q)", fs.Arg(0))
	}
	m, err := winnable.ParseMode(strings.ToUpper(mode))
	if err != nil {
		return c, cli.Usagef("winnable: --mode must be D1N, D3N, D1V or D3V")
	}
	c.mode = m
	switch {
	case c.out == "":
		return c, cli.Usagef("winnable: --out FILE is required")
	case c.count < 1:
		return c, cli.Usagef("winnable: --count must be at least 1")
	case c.budget < 1:
		return c, cli.Usagef("winnable: --budget must be at least 1 position")
	case c.limit < 0:
		return c, cli.Usagef("winnable: --for must not be negative")
	case c.workers < 1:
		return c, cli.Usagef("winnable: --workers must be at least 1")
	case c.solver != winnable.Tally && c.solver != winnable.Whole:
		return c, cli.Usagef("winnable: --solver must be tally or whole")
	case c.beam < 0 || (c.beam > 0 && c.solver != winnable.Tally):
		return c, cli.Usagef("winnable: --beam must be positive, with the tally solver")
	}
	return c, nil
}

// runWinnable is dsol winnable.
func runWinnable(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseWinnable(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	l, err := startList(c)
	if err != nil {
		return err
	}
	if c.limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.limit)
		defer cancel()
	}
	start := time.Now()
	before := len(l.Deals)
	progress := cli.IsTerminal(stderr)
	err = extendList(ctx, &l, c.count, c.workers, func(l *winnable.List, final bool) error {
		if progress {
			fmt.Fprintf(stderr, "\r%s: %d deals of %d searched, %s ", l.Mode, len(l.Deals), l.Searched, time.Since(start).Round(time.Second))
			if final {
				fmt.Fprintln(stderr)
			}
		}
		return writeList(c.out, *l)
	})
	if err != nil {
		return err
	}
	beam := ""
	if l.Beam > 0 {
		beam = fmt.Sprintf(" (a beam of %d)", l.Beam)
	}
	_, err = fmt.Fprintf(stdout, "%s: %d deals (%d new) of %d searched, budget %d positions%s, seed %d, in %s\n",
		l.Mode, len(l.Deals), len(l.Deals)-before, l.Searched, l.Budget, beam, l.Seed, time.Since(start).Round(time.Second))
	return err
}

// startList returns the list in the out file when it is of the same mode,
// budget and seed, else a new one; a file of another list is an error
// rather than something to overwrite.
func startList(c listConfig) (winnable.List, error) {
	l := winnable.List{Mode: c.mode, Solver: c.solver, Beam: c.beam, Budget: c.budget, Seed: c.seed}
	f, err := os.Open(c.out)
	if errors.Is(err, os.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return l, err
	}
	defer f.Close()
	old, err := winnable.ParseList(f)
	if err != nil {
		return l, fmt.Errorf("%s: %w", c.out, err)
	}
	same := old.Mode == c.mode && old.Solver == c.solver && old.Beam == c.beam && old.Budget == c.budget && old.Seed == c.seed
	if old.Searched == 0 || (len(old.Deals) == 0 && !same) {
		// An empty list, or one of other parameters that won nothing (as
		// the whole-board solver's Vegas lists), starts again with these.
		return l, nil
	}
	if !same {
		return l, fmt.Errorf("%s holds a list of %s, solver %s, beam %d, budget %d, seed %d: give those, or remove the file to start a new one",
			c.out, old.Mode, old.Solver, old.Beam, old.Budget, old.Seed)
	}
	return old, nil
}

// writeList writes a list to path through a file beside it renamed into
// place, so that an interrupted write leaves the previous list.
func writeList(path string, l winnable.List) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".winnable-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := l.WriteTo(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// solveWith returns a function that solves deals with the named solver
// (the tally solver with a beam of width beam when above 0; tables kept
// from one deal to the next), stopping when ctx ends.
func solveWith(ctx context.Context, name string, beam int) func(m winnable.Mode, deal uint64, budget int64) (won bool, positions int64, err error) {
	stop := func() bool { return ctx.Err() != nil }
	if name == winnable.Whole {
		s := solver.New()
		return func(m winnable.Mode, deal uint64, budget int64) (bool, int64, error) {
			res, won, err := winnable.Solve(s, m, deal, budget, func() bool { return !stop() })
			return won, res.Positions, err
		}
	}
	s := tally.New()
	return func(m winnable.Mode, deal uint64, budget int64) (bool, int64, error) {
		res, won, err := winnable.SolveTally(s, m, deal, budget, beam, stop)
		return won, res.Positions, err
	}
}

// saveEvery is how often a long run writes what it has found.
const saveEvery = 30 * time.Second

// extendList solves the next deals of the list's stream on workers
// goroutines until the list holds count deals or ctx ends, and calls save
// every saveEvery and at the end (final). The list only ever grows by a
// prefix of the stream that is solved to the end, so it is the same however
// many workers there are and wherever a run stopped.
func extendList(ctx context.Context, l *winnable.List, count, workers int, save func(l *winnable.List, final bool) error) error {
	next := winnable.Stream(l.Mode, l.Seed)
	for range l.Searched {
		next()
	}
	known := make(map[uint64]bool, len(l.Deals))
	for _, d := range l.Deals {
		known[d.Number] = true
	}
	type job struct {
		i    int64
		deal uint64
	}
	type result struct {
		i         int64
		deal      uint64
		won       bool
		positions int64
		err       error
	}
	jobs := make(chan job)
	results := make(chan result)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			solve := solveWith(wctx, l.Solver, l.Beam)
			for j := range jobs {
				won, positions, err := solve(l.Mode, j.deal, l.Budget)
				if wctx.Err() != nil {
					return // an interrupted search says nothing
				}
				results <- result{i: j.i, deal: j.deal, won: won, positions: positions, err: err}
			}
		})
	}
	go func() {
		defer close(jobs)
		for i := l.Searched; ; i++ {
			select {
			case jobs <- job{i: i, deal: next()}:
			case <-wctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	pending := map[int64]result{}
	last := time.Now()
	var err error
	for r := range results {
		if r.err != nil && err == nil {
			err = r.err
			stop()
		}
		pending[r.i] = r
		// Take in the solved prefix of the stream, in order.
		for len(l.Deals) < count {
			p, ok := pending[l.Searched]
			if !ok {
				break
			}
			delete(pending, l.Searched)
			l.Searched++
			if p.won && !known[p.deal] { // a number the stream drew twice counts once
				known[p.deal] = true
				l.Deals = append(l.Deals, winnable.Deal{Mode: l.Mode, Number: p.deal, Budget: l.Budget, Positions: p.positions, Beam: l.Beam})
			}
		}
		if len(l.Deals) >= count {
			stop()
		}
		if time.Since(last) >= saveEvery {
			last = time.Now()
			if serr := save(l, false); serr != nil && err == nil {
				err = serr
				stop()
			}
		}
	}
	if serr := save(l, true); err == nil {
		err = serr
	}
	return err
}
