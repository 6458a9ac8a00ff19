// Package hintrate is dsol hint-rate: the win rate of a player who always
// follows the hint, beside that of one who plays the race bot's choice, over
// a sample of random solo deals.
package hintrate

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
	"dsol/internal/hint"
	k "dsol/internal/klondike"
	"dsol/internal/race"
	"dsol/internal/sampling"
	"dsol/internal/solo"
	"dsol/internal/solver/tally"
	"dsol/internal/winnable"
)

// config is the command line of dsol hint-rate.
type config struct {
	sample     int    // deals to play
	draw       int    // 1 or 3
	vegas      bool   // Vegas scoring
	seed       uint64 // the seed of the deal numbers
	winnable   bool   // play the shipped winnable deals, not random ones
	firstLoss  int64  // with winnable: the budget of the search for the hint player's first losing action (0: none)
	json       bool   // print the report as JSON
	workers    int    // deals played at once: one per CPU
	maxActions int    // actions per game before it counts as lost
	stall      int    // actions without progress before it counts as lost
	opt        hint.Options
}

const usage = `usage: dsol hint-rate --sample N --draw 1|3 --scoring normal|vegas [--seed 1]
       [--winnable [--first-loss P]] [--max-actions 1000] [--stall 200] [--samples S] [--positions P] [--json]

Plays N random DS1 deals of one mode twice: once always following the hint
(GET /api/v1/games/{id}/hint: the unseen cards sampled and each sample
solved), once always playing the race bot's move choice. A game counts as
won only when the engine says won; it ends lost when the player has nothing
to play, after --max-actions actions, or after --stall actions without
progress (no card put up beyond the most ever up, none turned over), which
is a player going round the stock for ever. Reports both win rates with 95%
Wilson intervals and the time of a hint. The deals are those of dsol solve
--sample with the same seed; with --winnable, the first N winnable deals
of the mode shipped in the binary (its lists', then at draw-1 Vegas the
draw-3 Vegas lists'; each won by the solver with every card seen), so that
the rates are shares of what full information wins. With --first-loss,
each game of such a deal that the hint player loses is searched again for
the first action after which the tally solver, every card seen, no longer
wins within P positions: the report says at which action that came and
whether the solver proved the game lost there.

flags:
`

// parse reads the command line of dsol hint-rate.
func parse(args []string, stderr io.Writer) (config, error) {
	fs := cli.NewFlags("hint-rate", usage, stderr)
	c := config{workers: runtime.NumCPU()}
	var scoring string
	fs.IntVar(&c.sample, "sample", 200, "play this many random DS1 deals")
	fs.IntVar(&c.draw, "draw", 1, "draw 1 or 3")
	fs.StringVar(&scoring, "scoring", "normal", "normal (unlimited recycles) or vegas (a single pass)")
	fs.Uint64Var(&c.seed, "seed", 1, "the seed of the deal numbers")
	fs.BoolVar(&c.winnable, "winnable", false, "play the shipped winnable deals of the mode instead of random ones")
	fs.Int64Var(&c.firstLoss, "first-loss", 0, "with --winnable: find where each lost game was lost, searching `positions` per action")
	fs.BoolVar(&c.json, "json", false, "print the report as JSON")
	fs.IntVar(&c.maxActions, "max-actions", 1000, "actions per game before it counts as lost")
	fs.IntVar(&c.stall, "stall", 200, "actions without a new card up or turned over before the game counts as lost")
	fs.IntVar(&c.opt.Samples, "samples", hint.Default.Samples, "arrangements of the unseen cards solved per hint")
	fs.Int64Var(&c.opt.Positions, "positions", hint.Default.Positions, "the solver's budget per arrangement, in positions")
	fs.IntVar(&c.opt.Beam, "beam", hint.Default.Beam, "Vegas: the beam width of the second try when no arrangement is won (0: none)")
	fs.IntVar(&c.opt.BeamSamples, "beam-samples", hint.Default.BeamSamples, "Vegas: arrangements solved by the beam")
	fs.Int64Var(&c.opt.BeamPositions, "beam-positions", hint.Default.BeamPositions, "Vegas: the beam's budget per arrangement, in positions")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, cli.Usagef("hint-rate: %v", err)
	}
	switch {
	case fs.NArg() > 0:
		return c, cli.Usagef("hint-rate takes no arguments (got %q)", fs.Arg(0))
	case c.sample < 1:
		return c, cli.Usagef("hint-rate: --sample must be at least 1")
	case c.draw != 1 && c.draw != 3:
		return c, cli.Usagef("hint-rate: --draw must be 1 or 3")
	case c.maxActions < 1 || c.stall < 1:
		return c, cli.Usagef("hint-rate: --max-actions and --stall must be at least 1")
	case c.opt.Samples < 1 || c.opt.Positions < 1:
		return c, cli.Usagef("hint-rate: --samples and --positions must be at least 1")
	case c.opt.Beam < 0 || c.opt.BeamSamples < 0 || c.opt.BeamPositions < 0 || (c.opt.Beam > 0 && c.opt.BeamPositions < 1):
		return c, cli.Usagef("hint-rate: --beam, --beam-samples and --beam-positions must not be negative, and a beam needs positions")
	case c.firstLoss < 0 || (c.firstLoss > 0 && !c.winnable):
		return c, cli.Usagef("hint-rate: --first-loss takes a number of positions, with --winnable")
	}
	switch scoring {
	case "normal":
	case "vegas":
		c.vegas = true
	default:
		return c, cli.Usagef("hint-rate: --scoring must be normal or vegas")
	}
	if c.winnable {
		if n := len(winnable.Listed(c.mode())); c.sample > n {
			return c, cli.Usagef("hint-rate: --sample %d: the binary ships %d winnable %s deals", c.sample, n, c.mode())
		}
	}
	return c, nil
}

// mode is the list mode of the deals played.
func (c config) mode() winnable.Mode {
	return winnable.ModeOf(cards.Code{Kind: cards.Solo, Draw: c.draw, Vegas: c.vegas})
}

// codes are the deals to play.
func (c config) codes() []cards.Code {
	if !c.winnable {
		return sampling.Codes(c.seed, c.sample, c.draw, c.vegas)
	}
	codes := make([]cards.Code, c.sample)
	for i, d := range winnable.Listed(c.mode())[:c.sample] {
		codes[i] = d.Code()
	}
	return codes
}

// player chooses the next action of a solo game, or false to stop.
type player func(g *solo.Game, actions int) (k.Action, bool)

// hintPlayer follows the hint, seeded as the server seeds it (the game's
// code stands for its id).
func hintPlayer(opt hint.Options, hints *[]time.Duration) player {
	return func(g *solo.Game, actions int) (k.Action, bool) {
		start := time.Now()
		h := hint.For(g.Seen(), g.Foundations(), hint.Seed(g.Code().String(), int64(actions)), opt)
		*hints = append(*hints, time.Since(start))
		return h.Action, h.OK
	}
}

// botPlayer plays the race bot's choice, the solo board seen as the bot's
// own seat of a simultaneous race (a resignation ends the game).
func botPlayer() player {
	bot := &race.Bot{}
	return func(g *solo.Game, _ int) (k.Action, bool) {
		s := race.Seen{Seat: 1, Found: *g.Foundations(), Status: race.Playing}
		s.Boards[0] = g.Seen()
		s.Blocked[0] = g.Stuck()
		a, ok := bot.Next(s)
		return a, ok && a.Type != k.Resign
	}
}

// game is how a played game ended.
type game struct {
	won    bool       // the engine says won
	up     int        // cards on the foundations at the end
	played []k.Action // in order
}

// play plays a game of code with p to its end.
func play(code cards.Code, p player, c config) (game, error) {
	g, err := solo.New(code)
	if err != nil {
		return game{}, err
	}
	n := 0
	var played []k.Action
	up, down, last := 0, g.Board().FaceDown(), 0
	for ; n < c.maxActions && n-last < c.stall && g.Status() == solo.Playing; n++ {
		if u, d := g.Foundations().Total(), g.Board().FaceDown(); u > up || d < down {
			up, down, last = max(up, u), min(down, d), n
		}
		a, ok := p(g, n)
		if !ok {
			break
		}
		if _, err := g.Apply(a); err != nil {
			return game{played: played}, fmt.Errorf("%s after %d actions: %s refused: %w", code, n, a, err)
		}
		played = append(played, a)
	}
	return game{won: g.Status() == solo.Won, up: g.Foundations().Total(), played: played}, nil
}

// loss is where the hint player lost a game of a winnable deal.
type loss struct {
	// at is the first of the game's actions (counted from 1) after which
	// the tally solver, every card seen, no longer wins within the budget:
	// 0 when it wins after every action, or does not win the start.
	at     int
	proved bool // the solver proved the game lost after action at
	// warned is the first action from at on after which the live check
	// (the solver within solo.CheckBudget positions) proves the game lost,
	// what a player who turned it on is told; 0: never.
	warned int
}

// lossAt finds where the hint player lost the game of code that it played,
// searching budget positions for the loss and check for the live check.
func lossAt(sv *tally.Solver, code cards.Code, played []k.Action, budget, check int64) (loss, error) {
	g, err := solo.New(code)
	if err != nil {
		return loss{}, err
	}
	var l loss
	solve := func(budget int64) tally.Verdict {
		return sv.SolvePosition(g.Board(), g.Foundations(), tally.Options{MaxPositions: budget}).Verdict
	}
	if solve(budget) != tally.Won {
		return l, nil
	}
	for i, a := range played {
		if _, err := g.Apply(a); err != nil {
			return loss{}, fmt.Errorf("%s after %d actions: %s refused: %w", code, i, a, err)
		}
		if l.at == 0 {
			v := solve(budget)
			if v == tally.Won {
				continue
			}
			l.at, l.proved = i+1, v == tally.Unwinnable
		}
		if solve(check) == tally.Unwinnable {
			l.warned = i + 1
			break
		}
	}
	return l, nil
}

// kindNames are the kinds of action (kind), in the order reported.
var kindNames = []string{"draw", "recycle", "waste to column", "column to column", "to foundation", "foundation to column"}

// kind names the kind of an action.
func kind(a k.Action) string {
	switch {
	case a.Type != k.Move:
		return a.Type.String()
	case a.To.IsSlot() || a.To == k.AnyF:
		return "to foundation"
	case a.From.IsSlot():
		return "foundation to column"
	case a.From == k.Waste:
		return "waste to column"
	}
	return "column to column"
}

// report is the summary of a run, as --json prints it.
type report struct {
	Mode      string `json:"mode"`
	Deals     int    `json:"deals"` // played to the end (fewer than asked when interrupted)
	Asked     int    `json:"asked"`
	Seed      uint64 `json:"seed"`
	Winnable  bool   `json:"winnable"` // the shipped winnable deals, not random ones (the seed unused)
	Samples   int    `json:"samples"`
	Positions int64  `json:"positions"`
	// The Vegas hint's second try (hint.Options.Beam), 0 in Normal.
	Beam          int        `json:"beam"`
	BeamSamples   int        `json:"beam_samples"`
	BeamPositions int64      `json:"beam_positions"`
	MaxActions    int        `json:"max_actions"`
	Stall         int        `json:"stall"`
	HintWon       int        `json:"hint_won"`
	HintRate      float64    `json:"hint_rate"`
	HintCI        [2]float64 `json:"hint_rate_ci"`
	BotWon        int        `json:"bot_won"`
	BotRate       float64    `json:"bot_rate"`
	BotCI         [2]float64 `json:"bot_rate_ci"`
	// The cards on the foundations at the end of a game, on average over
	// all games (the Vegas score is 5 a card less 52 a deal).
	HintUp float64 `json:"hint_up"`
	BotUp  float64 `json:"bot_up"`
	// The actions of the won games: median, 99th percentile, most.
	HintWonActions [3]int      `json:"hint_won_actions"`
	BotWonActions  [3]int      `json:"bot_won_actions"`
	Hints          int         `json:"hints"`
	HintP50MS      json.Number `json:"hint_p50_ms"`
	HintP95MS      json.Number `json:"hint_p95_ms"`
	WallMS         json.Number `json:"wall_ms"`
	// With --first-loss: the hint player's lost games searched again, those
	// with an action after which the solver no longer won within FirstLoss
	// positions, how many of those it proved lost there, that action
	// (median, 99th percentile, latest) and its kind (see kind).
	FirstLoss  int64          `json:"first_loss,omitempty"`
	LossGames  int            `json:"loss_games,omitempty"`
	LossFound  int            `json:"loss_found,omitempty"`
	LossProved int            `json:"loss_proved,omitempty"`
	LossAt     [3]int         `json:"loss_at"`
	LossKinds  map[string]int `json:"loss_kinds,omitempty"`
	// LossWarned counts the games that the live check proved lost from that
	// action on, WarnedAfter how many actions after it (median, 99th
	// percentile, most; 0 when right after it).
	LossWarned  int    `json:"loss_warned,omitempty"`
	WarnedAfter [3]int `json:"warned_after"`
}

// Run is dsol hint-rate with its arguments (after the subcommand's name):
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
	codes := c.codes()
	next := make(chan cards.Code)
	var done sync.WaitGroup
	var mu sync.Mutex
	var won [2]int       // hint, bot
	var lengths [2][]int // of the won games
	var up [2]int        // cards up at the end, all games
	var times []time.Duration
	var lost, proved int // with --first-loss: the hint player's lost games searched, proved lost
	var losses []int     // the action each was lost at
	var warned []int     // the actions from it to the live check's proof
	kinds := map[string]int{}
	var failure error
	finished := 0
	progress := cli.IsTerminal(stderr)
	start := time.Now()
	for range c.workers {
		done.Go(func() {
			var sv *tally.Solver
			if c.firstLoss > 0 {
				sv = tally.New()
			}
			for code := range next {
				var hints []time.Duration
				hg, err1 := play(code, hintPlayer(c.opt, &hints), c)
				bg, err2 := play(code, botPlayer(), c)
				var l loss
				var err3 error
				searched := sv != nil && !hg.won
				if searched {
					l, err3 = lossAt(sv, code, hg.played, c.firstLoss, solo.CheckBudget)
				}
				mu.Lock()
				if err := errors.Join(err1, err2, err3); err != nil && failure == nil {
					failure = err
				}
				if searched {
					lost++
					if l.at > 0 {
						losses = append(losses, l.at)
						kinds[kind(hg.played[l.at-1])]++
					}
					if l.proved {
						proved++
					}
					if l.warned > 0 {
						warned = append(warned, l.warned-l.at)
					}
				}
				for i, g := range [2]game{hg, bg} {
					up[i] += g.up
					if g.won {
						won[i]++
						lengths[i] = append(lengths[i], len(g.played))
					}
				}
				times = append(times, hints...)
				finished++
				if progress {
					fmt.Fprintf(stderr, "\r%d/%d: hint won %d, bot won %d ", finished, len(codes), won[0], won[1])
				}
				mu.Unlock()
			}
		})
	}
	sampling.Feed(ctx, next, codes)
	done.Wait()
	if progress {
		fmt.Fprintln(stderr)
	}
	if failure != nil {
		return failure
	}
	if finished == 0 {
		return fmt.Errorf("hint-rate: interrupted before the first deal")
	}
	slices.Sort(times)
	ci := func(k int) [2]float64 {
		w := sampling.Wilson(k, finished)
		return [2]float64{sampling.Round(w[0]), sampling.Round(w[1])}
	}
	rep := report{
		Mode: sampling.Mode(c.draw, c.vegas), Deals: finished, Asked: len(codes),
		Seed: c.seed, Winnable: c.winnable, Samples: c.opt.Samples, Positions: c.opt.Positions, MaxActions: c.maxActions, Stall: c.stall,
		HintWon: won[0], HintRate: sampling.Round(float64(won[0]) / float64(finished)), HintCI: ci(won[0]),
		HintUp: sampling.Round(float64(up[0]) / float64(finished)), BotUp: sampling.Round(float64(up[1]) / float64(finished)),
		BotWon: won[1], BotRate: sampling.Round(float64(won[1]) / float64(finished)), BotCI: ci(won[1]),
		Hints: len(times), HintP50MS: sampling.Millis(sampling.Quantile(times, 0.5)), HintP95MS: sampling.Millis(sampling.Quantile(times, 0.95)),
		WallMS:         sampling.Millis(time.Since(start)),
		HintWonActions: spread(lengths[0]), BotWonActions: spread(lengths[1]),
		FirstLoss: c.firstLoss, LossGames: lost, LossFound: len(losses), LossProved: proved, LossAt: spread(losses), LossKinds: kinds,
		LossWarned: len(warned), WarnedAfter: spread(warned),
	}
	if c.vegas && c.opt.TriesBeam() {
		rep.Beam, rep.BeamSamples, rep.BeamPositions = c.opt.Beam, c.opt.BeamSamples, c.opt.BeamPositions
	}
	if c.json {
		return json.NewEncoder(stdout).Encode(rep)
	}
	pct := func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
	deals := fmt.Sprintf("random DS1-%s deals, seed %d", rep.Mode, rep.Seed)
	if rep.Winnable {
		deals = fmt.Sprintf("shipped winnable DS1-%s deals", rep.Mode)
	}
	per := fmt.Sprintf("%d samples of %d positions per hint", rep.Samples, rep.Positions)
	if rep.Beam > 0 {
		per += fmt.Sprintf(" (none won: %d more with a beam of %d within %d)", rep.BeamSamples, rep.Beam, rep.BeamPositions)
	}
	_, err = fmt.Fprintf(stdout, `sample      %d of %d %s, %s, at most %d actions (%d without progress)
hint        won %d: %s (95%% CI %s–%s), %.2f cards up at the end on average
bot         won %d: %s (95%% CI %s–%s), %.2f cards up
hint time   %d hints, median %s ms, p95 %s ms; all %s ms
won games   hint: %d actions median, %d at the 99th percentile, %d the most; bot: %d, %d, %d
`, rep.Deals, rep.Asked, deals, per, rep.MaxActions, rep.Stall,
		rep.HintWon, pct(rep.HintRate), pct(rep.HintCI[0]), pct(rep.HintCI[1]), rep.HintUp,
		rep.BotWon, pct(rep.BotRate), pct(rep.BotCI[0]), pct(rep.BotCI[1]), rep.BotUp,
		rep.Hints, rep.HintP50MS, rep.HintP95MS, rep.WallMS,
		rep.HintWonActions[0], rep.HintWonActions[1], rep.HintWonActions[2], rep.BotWonActions[0], rep.BotWonActions[1], rep.BotWonActions[2])
	if err == nil && rep.FirstLoss > 0 {
		_, err = fmt.Fprintf(stdout, "first loss  games the hint player lost %d; with an action after which the solver, every card seen, no longer wins within %d positions %d: at action %d median, %d at the 99th percentile, %d the latest; proved lost there %d\n",
			rep.LossGames, rep.FirstLoss, rep.LossFound, rep.LossAt[0], rep.LossAt[1], rep.LossAt[2], rep.LossProved)
		if err == nil {
			_, err = fmt.Fprintf(stdout, "live check  proved lost (within %d positions) from that action on %d: %d actions after it median, %d at the 99th percentile, %d the most\n",
				solo.CheckBudget, rep.LossWarned, rep.WarnedAfter[0], rep.WarnedAfter[1], rep.WarnedAfter[2])
		}
		for _, kd := range kindNames {
			if err == nil && rep.LossKinds[kd] > 0 {
				_, err = fmt.Fprintf(stdout, "            %s %d\n", kd, rep.LossKinds[kd])
			}
		}
	}
	return err
}

// spread is the median, the 99th percentile and the most of ns (zeros
// when empty).
func spread(ns []int) [3]int {
	slices.Sort(ns)
	return [3]int{sampling.Quantile(ns, 0.5), sampling.Quantile(ns, 0.99), sampling.Quantile(ns, 1)}
}
