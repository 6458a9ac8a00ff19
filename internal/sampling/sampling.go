// Package sampling holds what the tools that play or solve a sample of deals
// share (dsol solve --sample, hint-rate, bot-duel): the deals a seed gives,
// handing items out to workers, and the figures of their reports (rates with
// 95% Wilson intervals, quantiles of times).
package sampling

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"dsol/internal/cards"
)

// Codes returns the n solo deals (DS1) of a sample of one mode, numbered by
// a SplitMix64 stream from seed: the same seed gives the same deals.
func Codes(seed uint64, n, draw int, vegas bool) []cards.Code {
	r := cards.NewSplitMix64(seed)
	codes := make([]cards.Code, n)
	for i := range codes {
		codes[i] = cards.Code{Kind: cards.Solo, Draw: draw, Vegas: vegas, Deal: r.Uniform(cards.DealCount)}
	}
	return codes
}

// Mode names a solo mode as the codes spell it, such as D1N or D3V.
func Mode(draw int, vegas bool) string {
	return fmt.Sprintf("D%d%s", draw, map[bool]string{false: "N", true: "V"}[vegas])
}

// Feed sends items to next in order until ctx is done, closes next and
// returns how many it sent.
func Feed[T any](ctx context.Context, next chan<- T, items []T) int {
	defer close(next)
	for i, it := range items {
		select {
		case next <- it:
		case <-ctx.Done():
			return i
		}
	}
	return len(items)
}

// Millis writes a duration in milliseconds with one decimal.
func Millis(d time.Duration) json.Number {
	return json.Number(fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond)))
}

// Round rounds a rate to four decimals for the reports.
func Round(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// Quantile returns the q-quantile of sorted values (nearest rank), zero
// when there are none.
func Quantile[T cmp.Ordered](sorted []T, q float64) T {
	if len(sorted) == 0 {
		var zero T
		return zero
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// Wilson returns the 95% Wilson score interval of k successes in n trials.
func Wilson(k, n int) [2]float64 {
	const z = 1.959964
	p := float64(k) / float64(n)
	nf := float64(n)
	d := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / d
	half := z / d * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return [2]float64{max(0, centre-half), min(1, centre+half)}
}
