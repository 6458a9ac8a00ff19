package botduel

import (
	"encoding/binary"
	"fmt"
	"time"

	"dsol/internal/cards"
	"dsol/internal/hint"
	k "dsol/internal/klondike"
	"dsol/internal/race"
)

// mode is the race mode in the code's spelling, such as D1UI.
func (c config) mode() string {
	m := fmt.Sprintf("D%dUI", c.draw)
	if c.single {
		m = m[:2] + "S" + m[3:]
	}
	if c.mirrored {
		m = m[:3] + "M"
	}
	return m
}

// codes are the deals of a duel: from the seed's stream, DR1 and DR2
// codes in turn.
func codes(c config) []cards.Code {
	r := cards.NewSplitMix64(c.seed)
	codes := make([]cards.Code, c.races/2)
	for i := range codes {
		code := cards.Code{Kind: cards.Race, Draw: c.draw, Single: c.single, Mirrored: c.mirrored}
		if i%2 == 0 {
			code.Deal = r.Uniform(cards.DealCount)
		} else {
			code.Secret = true
			for j := 0; j < cards.SecretBytes; j += 8 {
				binary.LittleEndian.PutUint64(code.Key[j:], r.Next())
			}
		}
		codes[i] = code
	}
	return codes
}

// result is one race of a duel.
type result struct {
	outcome    int // of the strong bot: 1 win, 0 draw, -1 loss
	unfinished bool
	reason     race.Reason
	strong     int // cards the strong bot put up
	normal     int
	thinks     []time.Duration // the strong bot's decisions worked out (Think)
	decisions  int             // the strong bot's actions
	hinted     int             // … of which a hint's
}

// duel plays one race of code with the strong bot in seat strong and the
// normal bot in the other.
func duel(code cards.Code, strong int, c config) (result, error) {
	opts := race.Options{Turns: c.turns}
	if c.turns == race.Alternating {
		opts.First = race.FirstCreator
	}
	r, err := race.New(code, opts)
	if err != nil {
		return result{}, err
	}
	var res result
	sb := &race.StrongBot{}
	var nb race.Bot
	name := code.String()
	next := func(seat int) (k.Action, bool) {
		s := r.Seen(seat)
		if seat != strong {
			return nb.Next(s)
		}
		var h hint.Hint
		if sb.Wants(s) {
			start := time.Now()
			h = race.Think(s, hint.Seed(name, int64(r.Actions())), c.opt)
			res.thinks = append(res.thinks, time.Since(start))
		}
		a, ok := sb.Play(s, h)
		if ok {
			res.decisions++
			if h.OK && a == h.Action {
				res.hinted++
			}
		}
		return a, ok
	}
	seat := 1
	for r.Status() == race.Playing {
		if r.Actions() >= c.maxActions {
			res.unfinished = true
			break
		}
		if c.turns == race.Alternating {
			seat = r.Turn()
		}
		a, ok := next(seat)
		if !ok && c.turns == race.Simultaneous {
			// it waits: the other acts, or both ask again (a bot that is
			// not blocked runs out of patience and resigns)
			seat = 3 - seat
			a, ok = next(seat)
		}
		if ok {
			if _, err := r.Apply(seat, a); err != nil {
				return res, fmt.Errorf("%s, strong in seat %d: seat %d's %s refused: %w", name, strong, seat, a, err)
			}
		}
		if c.turns == race.Simultaneous {
			seat = 3 - seat
		}
	}
	out := r.Result()
	res.reason = out.Reason
	res.strong, res.normal = r.Count(strong), r.Count(3-strong)
	switch {
	case res.unfinished || out.Winner == 0:
	case out.Winner == strong:
		res.outcome = 1
	default:
		res.outcome = -1
	}
	return res, nil
}
