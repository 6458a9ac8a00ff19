// Package botduel is dsol bot-duel: races of the strong bot against the
// normal one on random deals, each deal played with the seats both ways, and
// the strong bot's record.
package botduel

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"time"

	"dsol/internal/cards"
	"dsol/internal/cli"
	"dsol/internal/race"
	"dsol/internal/sampling"
)

// config is the command line of dsol bot-duel.
type config struct {
	races      int
	seed       uint64
	draw       int
	single     bool
	mirrored   bool
	turns      race.Turns
	maxActions int
	workers    int
	json       bool
	opt        race.ThinkOptions
}

const usage = `usage: dsol bot-duel --races N [--seed 1] [--draw 1|3] [--redeal unlimited|single]
       [--decks independent|mirrored] [--turns simultaneous|alternating]
       [--samples S] [--steps N] [--max-actions 5000] [--json]

Plays N races of the strong bot ("bot": "strong") against the normal one
("normal") on N/2 random deals, half DR1 and half secret DR2 codes, each deal
twice with the seats swapped (in an alternating race seat 1 starts, so each
bot starts once per deal). In a simultaneous race the two bots act in turn,
as two bots with the same think time would; one that waits lets the other
act. Each bot sees only its own seat's view. Reports the strong bot's wins,
draws and losses with a 95% Wilson interval of its win rate, how many deals
it won both ways round, lost both ways or split (with independent decks the
deal often decides: the seat with the better layout wins whoever plays it),
the cards each put up, and the time of the strong bot's decisions.

flags:
`

// parse reads the command line of dsol bot-duel.
func parse(args []string, stderr io.Writer) (config, error) {
	fs := cli.NewFlags("bot-duel", usage, stderr)
	c := config{workers: runtime.NumCPU()}
	var redeal, decks, turns string
	fs.IntVar(&c.races, "races", 100, "races to play (even: each deal is played twice)")
	fs.Uint64Var(&c.seed, "seed", 1, "the seed of the deals")
	fs.IntVar(&c.draw, "draw", 1, "draw 1 or 3")
	fs.StringVar(&redeal, "redeal", "unlimited", "unlimited or single (one pass through the stock)")
	fs.StringVar(&decks, "decks", "independent", "independent or mirrored (both seats get the same deal)")
	fs.StringVar(&turns, "turns", "simultaneous", "simultaneous or alternating")
	fs.IntVar(&c.opt.Samples, "samples", race.StrongOptions.Samples, "arrangements of the unseen cards played out per strong decision")
	fs.IntVar(&c.opt.Steps, "steps", race.StrongOptions.Steps, "actions per playout of a strong decision, at most")
	fs.IntVar(&c.maxActions, "max-actions", 5000, "actions per race before it counts as unfinished")
	fs.IntVar(&c.workers, "workers", c.workers, "races played at once")
	fs.BoolVar(&c.json, "json", false, "print the report as JSON")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, cli.Usagef("bot-duel: %v", err)
	}
	var ok bool
	switch {
	case fs.NArg() > 0:
		return c, cli.Usagef("bot-duel takes no arguments (got %q)", fs.Arg(0))
	case c.races < 2 || c.races%2 != 0:
		return c, cli.Usagef("bot-duel: --races must be even and at least 2")
	case c.draw != 1 && c.draw != 3:
		return c, cli.Usagef("bot-duel: --draw must be 1 or 3")
	case redeal != "unlimited" && redeal != "single":
		return c, cli.Usagef("bot-duel: --redeal must be unlimited or single")
	case decks != "independent" && decks != "mirrored":
		return c, cli.Usagef("bot-duel: --decks must be independent or mirrored")
	case c.opt.Samples < 1 || c.opt.Steps < 1:
		return c, cli.Usagef("bot-duel: --samples and --steps must be at least 1")
	case c.maxActions < 1 || c.workers < 1:
		return c, cli.Usagef("bot-duel: --max-actions and --workers must be at least 1")
	}
	if c.turns, ok = race.ParseTurns(turns); !ok || turns == "" {
		return c, cli.Usagef("bot-duel: --turns must be simultaneous or alternating")
	}
	c.single, c.mirrored = redeal == "single", decks == "mirrored"
	return c, nil
}

// report is the summary of a duel, as --json prints it.
type report struct {
	Mode       string     `json:"mode"`
	Turns      string     `json:"turns"`
	Races      int        `json:"races"` // played (fewer than asked when interrupted)
	Asked      int        `json:"asked"`
	Seed       uint64     `json:"seed"`
	Samples    int        `json:"samples"`
	Steps      int        `json:"steps"`
	Wins       int        `json:"wins"`
	Draws      int        `json:"draws"`
	Losses     int        `json:"losses"`
	Unfinished int        `json:"unfinished"`
	WinRate    float64    `json:"win_rate"`
	WinCI      [2]float64 `json:"win_rate_ci"`
	Resigned   int        `json:"resigned"` // races that ended in a resignation
	// Each deal's two races: both won by the strong bot, both by the
	// normal one, one each (or a draw or an unfinished race in either).
	Deals       int         `json:"deals"`
	DealsSwept  int         `json:"deals_swept"`
	DealsLost   int         `json:"deals_lost"`
	DealsSplit  int         `json:"deals_split"`
	StrongCards float64     `json:"strong_cards"`
	NormalCards float64     `json:"normal_cards"`
	Decisions   int         `json:"decisions"`
	Hinted      float64     `json:"hinted"` // share of the strong bot's actions that were Think's
	Thinks      int         `json:"thinks"`
	ThinkP50MS  json.Number `json:"think_p50_ms"`
	ThinkP95MS  json.Number `json:"think_p95_ms"`
	WallMS      json.Number `json:"wall_ms"`
}

// pairing is one race of a duel: a deal (its index and code) and the strong
// bot's seat.
type pairing struct {
	deal   int
	code   cards.Code
	strong int
}

// Run is dsol bot-duel with its arguments (after the subcommand's name):
// the report goes to stdout, the usage and the progress line to stderr. A
// wrong command line is a *cli.UsageError.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	var races []pairing
	for i, code := range codes(c) {
		races = append(races, pairing{i, code, 1}, pairing{i, code, 2})
	}
	outcomes := make([][]int, len(races)/2) // each deal's races, of the strong bot: 1 win, 0 draw, -1 loss
	next := make(chan pairing)
	var done sync.WaitGroup
	var mu sync.Mutex
	rep := report{Mode: c.mode(), Turns: c.turns.String(), Asked: c.races, Seed: c.seed,
		Samples: c.opt.Samples, Steps: c.opt.Steps}
	var thinks []time.Duration
	var up [2]int // cards put up by the strong and the normal bot
	var failure error
	progress := cli.IsTerminal(stderr)
	start := time.Now()
	for range c.workers {
		done.Go(func() {
			for p := range next {
				res, err := duel(p.code, p.strong, c)
				mu.Lock()
				if err != nil && failure == nil {
					failure = err
				}
				rep.Races++
				outcomes[p.deal] = append(outcomes[p.deal], res.outcome)
				switch {
				case res.unfinished:
					rep.Unfinished++
				case res.outcome > 0:
					rep.Wins++
				case res.outcome < 0:
					rep.Losses++
				default:
					rep.Draws++
				}
				if res.reason == race.Resigned {
					rep.Resigned++
				}
				up[0] += res.strong
				up[1] += res.normal
				rep.Decisions += res.decisions
				rep.Hinted += float64(res.hinted)
				thinks = append(thinks, res.thinks...)
				if progress {
					fmt.Fprintf(stderr, "\r%d/%d: strong won %d, drew %d, lost %d ", rep.Races, c.races, rep.Wins, rep.Draws, rep.Losses)
				}
				mu.Unlock()
			}
		})
	}
	sampling.Feed(ctx, next, races)
	done.Wait()
	if progress {
		fmt.Fprintln(stderr)
	}
	if failure != nil {
		return failure
	}
	if rep.Races == 0 {
		return fmt.Errorf("bot-duel: interrupted before the first race")
	}
	for _, o := range outcomes {
		if len(o) < 2 {
			continue // interrupted
		}
		rep.Deals++
		switch o[0] + o[1] {
		case 2:
			rep.DealsSwept++
		case -2:
			rep.DealsLost++
		default:
			rep.DealsSplit++
		}
	}
	slices.Sort(thinks)
	w := sampling.Wilson(rep.Wins, rep.Races)
	rep.WinRate, rep.WinCI = sampling.Round(float64(rep.Wins)/float64(rep.Races)), [2]float64{sampling.Round(w[0]), sampling.Round(w[1])}
	rep.StrongCards = sampling.Round(float64(up[0]) / float64(rep.Races))
	rep.NormalCards = sampling.Round(float64(up[1]) / float64(rep.Races))
	if rep.Decisions > 0 {
		rep.Hinted = sampling.Round(rep.Hinted / float64(rep.Decisions))
	}
	rep.Thinks, rep.ThinkP50MS, rep.ThinkP95MS = len(thinks), sampling.Millis(sampling.Quantile(thinks, 0.5)), sampling.Millis(sampling.Quantile(thinks, 0.95))
	rep.WallMS = sampling.Millis(time.Since(start))
	if c.json {
		return json.NewEncoder(stdout).Encode(rep)
	}
	pct := func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
	_, err = fmt.Fprintf(stdout, `races       %d of %d DR1/DR2-%s %s races, seed %d, each deal with the seats both ways
strong      won %d, drew %d, lost %d, unfinished %d: wins %s (95%% CI %s–%s); %d ended by a resignation
deals       %d played both ways: strong won both %d, normal won both %d, split %d
cards up    strong %.1f, normal %.1f a race
decisions   %d actions of the strong bot, %s of them its playouts' (%d samples of at most %d actions)
think time  %d decisions worked out, median %s ms, p95 %s ms; all %s ms
`, rep.Races, rep.Asked, rep.Mode, rep.Turns, rep.Seed,
		rep.Wins, rep.Draws, rep.Losses, rep.Unfinished, pct(rep.WinRate), pct(rep.WinCI[0]), pct(rep.WinCI[1]), rep.Resigned,
		rep.Deals, rep.DealsSwept, rep.DealsLost, rep.DealsSplit,
		rep.StrongCards, rep.NormalCards,
		rep.Decisions, pct(rep.Hinted), rep.Samples, rep.Steps,
		rep.Thinks, rep.ThinkP50MS, rep.ThinkP95MS, rep.WallMS)
	return err
}
