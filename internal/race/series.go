package race

import k "dsol/internal/klondike"

// Series adds up the counts of the games of a series of N races (RULES.md's
// optional series rule): the higher total wins the series. The zero value is
// not usable; call NewSeries.
type Series struct {
	games   int
	results []Result
	totals  [Seats]int
}

// NewSeries starts a series of n games (n ≥ 1).
func NewSeries(n int) (*Series, error) {
	if n < 1 {
		return nil, k.Errorf(k.BadRequest, "a series has at least one game")
	}
	return &Series{games: n}, nil
}

// Add records the result of the next finished game of the series.
func (s *Series) Add(res Result) error {
	switch {
	case res.Reason == NotOver:
		return k.Errorf(k.BadRequest, "only finished races count in a series")
	case s.Done():
		return k.Errorf(k.GameOver, "the series of %d games is complete", s.games)
	}
	s.results = append(s.results, res)
	s.totals[0] += res.Counts[0]
	s.totals[1] += res.Counts[1]
	return nil
}

// Games returns the length of the series.
func (s *Series) Games() int { return s.games }

// Played returns how many games were recorded.
func (s *Series) Played() int { return len(s.results) }

// Results returns the recorded results in order (read only).
func (s *Series) Results() []Result { return s.results }

// Totals returns each seat's cards on the foundations over the recorded games.
func (s *Series) Totals() [Seats]int { return s.totals }

// Done reports whether every game of the series was recorded.
func (s *Series) Done() bool { return len(s.results) >= s.games }

// Winner returns the seat with the higher total (1 or 2), or 0 while the
// series runs or when the totals are equal.
func (s *Series) Winner() int {
	switch {
	case !s.Done() || s.totals[0] == s.totals[1]:
		return 0
	case s.totals[0] > s.totals[1]:
		return 1
	}
	return 2
}
