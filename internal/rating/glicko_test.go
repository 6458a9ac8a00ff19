package rating

import (
	"math"
	"testing"
)

// paper is the worked example of Glickman's "Example of the Glicko-2
// system": a player rated 1500 (RD 200, σ 0.06) beats a 1400 (RD 30) and
// loses to a 1550 (RD 100) and a 1700 (RD 300), τ = 0.5.
var paper = []Game{
	{Opponent: Rating{Rating: 1400, Deviation: 30}, Score: 1},
	{Opponent: Rating{Rating: 1550, Deviation: 100}, Score: 0},
	{Opponent: Rating{Rating: 1700, Deviation: 300}, Score: 0},
}

func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}

// near reports whether got is within tol of want.
func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestPaperExample checks the internal scale to the paper's 4 decimals
// (μ' = −0.2069, φ' = 0.8722; σ' = 0.05999, which the paper truncates from
// 0.059996) and the Glicko scale (1464.06, 151.52). The paper works with its
// intermediate figures rounded, so its r' is 0.01 above the exact 1464.0507.
func TestPaperExample(t *testing.T) {
	opp := make([]opponent, len(paper))
	for i, gm := range paper {
		opp[i] = opponent{mu: (gm.Opponent.Rating - StartRating) / scale, phi: gm.Opponent.Deviation / scale, score: gm.Score}
	}
	mu, phi, sigma := update(0, 200/scale, 0.06, opp, 0.5)
	if got := round(mu, 4); got != -0.2069 {
		t.Errorf("μ' = %.6f, want -0.2069", mu)
	}
	if got := round(phi, 4); got != 0.8722 {
		t.Errorf("φ' = %.6f, want 0.8722", phi)
	}
	if !near(sigma, 0.05999, 0.00001) {
		t.Errorf("σ' = %.8f, want 0.05999", sigma)
	}
	r := Update(Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}, paper, 0.5)
	if !near(r.Rating, 1464.06, 0.01) {
		t.Errorf("r' = %.4f, want 1464.06", r.Rating)
	}
	if got := round(r.Deviation, 2); got != 151.52 {
		t.Errorf("RD' = %.4f, want 151.52", r.Deviation)
	}
}

// TestPaperIntermediates checks the paper's v = 1.7785 and Δ = −0.4834 of
// the same example, to the 0.001 its rounded g and E leave (exact: 1.77898,
// −0.48393).
func TestPaperIntermediates(t *testing.T) {
	var vInv, sum float64
	for _, gm := range paper {
		o := opponent{mu: (gm.Opponent.Rating - StartRating) / scale, phi: gm.Opponent.Deviation / scale, score: gm.Score}
		e := expected(0, o)
		vInv += g(o.phi) * g(o.phi) * e * (1 - e)
		sum += g(o.phi) * (o.score - e)
	}
	v := 1 / vInv
	if !near(v, 1.7785, 0.001) {
		t.Errorf("v = %.6f, want 1.7785", v)
	}
	if !near(v*sum, -0.4834, 0.001) {
		t.Errorf("Δ = %.6f, want -0.4834", v*sum)
	}
}

func TestRace(t *testing.T) {
	a, b := Race(Start(), Start(), 1)
	if a.Rating <= StartRating || b.Rating >= StartRating {
		t.Fatalf("winner %.2f, loser %.2f: the winner must gain and the loser lose", a.Rating, b.Rating)
	}
	if d := (a.Rating - StartRating) + (b.Rating - StartRating); math.Abs(d) > 1e-9 {
		t.Errorf("equal players: the gain and the loss differ by %g", d)
	}
	if a.Deviation >= StartDeviation || b.Deviation >= StartDeviation {
		t.Errorf("deviations %.2f, %.2f: a game makes the ratings surer", a.Deviation, b.Deviation)
	}
	da, db := Race(Start(), Start(), 0.5)
	if da.Rating != StartRating || db.Rating != StartRating {
		t.Errorf("a draw between equals moved the ratings: %.4f, %.4f", da.Rating, db.Rating)
	}
}

func TestNoGames(t *testing.T) {
	r := Update(Rating{Rating: 1600, Deviation: 100, Volatility: 0.06}, nil, Tau)
	if r.Rating != 1600 || r.Volatility != 0.06 {
		t.Errorf("rating %.2f, volatility %.4f: only the deviation may change", r.Rating, r.Volatility)
	}
	if want := math.Sqrt(100*100/scale/scale+0.06*0.06) * scale; math.Abs(r.Deviation-want) > 1e-9 {
		t.Errorf("deviation %.4f, want %.4f", r.Deviation, want)
	}
	if r := Update(Start(), nil, Tau); r.Deviation != StartDeviation {
		t.Errorf("deviation %.4f grew past the start's", r.Deviation)
	}
}
