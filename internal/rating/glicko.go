// Package rating is the Glicko-2 rating system (Mark Glickman, "Example of
// the Glicko-2 system"): a rating, its deviation (how sure the rating is)
// and a volatility (how erratic the player's results are). It is pure: no
// I/O, no clock.
//
// dsol rates each race as a rating period of its own holding one game for
// each of its two players, so a rating moves after every rated race rather
// than once per fixed period, and a player's deviation only grows through
// the volatility step (it is never raised for time away).
package rating

import "math"

// The starting values of a new player, and the system constant τ. τ bounds
// how fast the volatility changes; Glickman suggests 0.3 to 1.2, and his
// worked example uses 0.5, which dsol takes.
const (
	StartRating     = 1500.0
	StartDeviation  = 350.0
	StartVolatility = 0.06
	Tau             = 0.5
)

// scale converts between the Glicko scale (1500, 350) and Glicko-2's (0, 2.01).
const scale = 173.7178

// epsilon is the convergence tolerance of the volatility iteration.
const epsilon = 0.000001

// Rating is a player's rating on the Glicko scale.
type Rating struct {
	Rating     float64
	Deviation  float64
	Volatility float64
}

// Start is the rating of a player who has not been rated yet.
func Start() Rating {
	return Rating{Rating: StartRating, Deviation: StartDeviation, Volatility: StartVolatility}
}

// Game is one game of a rating period: the opponent's rating before the
// period and the score (1 a win, 0.5 a draw, 0 a loss).
type Game struct {
	Opponent Rating
	Score    float64
}

// Update returns the player's rating after a rating period of games, with
// system constant tau. With no games only the deviation grows. The
// deviation never exceeds StartDeviation.
func Update(p Rating, games []Game, tau float64) Rating {
	mu, phi := (p.Rating-StartRating)/scale, p.Deviation/scale
	if len(games) == 0 {
		phi = math.Sqrt(phi*phi + p.Volatility*p.Volatility)
		return Rating{Rating: p.Rating, Deviation: math.Min(phi*scale, StartDeviation), Volatility: p.Volatility}
	}
	opp := make([]opponent, len(games))
	for i, g := range games {
		opp[i] = opponent{mu: (g.Opponent.Rating - StartRating) / scale, phi: g.Opponent.Deviation / scale, score: g.Score}
	}
	mu, phi, sigma := update(mu, phi, p.Volatility, opp, tau)
	return Rating{Rating: mu*scale + StartRating, Deviation: math.Min(phi*scale, StartDeviation), Volatility: sigma}
}

// Race returns the ratings of two players after a race between them, in
// which the first scored score (1 won, 0.5 drawn, 0 lost).
func Race(a, b Rating, score float64) (Rating, Rating) {
	return Update(a, []Game{{Opponent: b, Score: score}}, Tau),
		Update(b, []Game{{Opponent: a, Score: 1 - score}}, Tau)
}

// opponent is a game on the Glicko-2 scale.
type opponent struct {
	mu, phi, score float64
}

// g is Glicko-2's g(φ), which weighs a game by the opponent's deviation.
func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// expected is the expected score against an opponent, E(μ, μj, φj).
func expected(mu float64, o opponent) float64 {
	return 1 / (1 + math.Exp(-g(o.phi)*(mu-o.mu)))
}

// update is steps 3 to 7 of the paper, on the Glicko-2 scale.
func update(mu, phi, sigma float64, games []opponent, tau float64) (float64, float64, float64) {
	var vInv, sum float64
	for _, o := range games {
		e := expected(mu, o)
		gj := g(o.phi)
		vInv += gj * gj * e * (1 - e)
		sum += gj * (o.score - e)
	}
	v := 1 / vInv
	delta := v * sum
	sigma = volatility(delta, phi, v, sigma, tau)
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	return mu + phi*phi*sum, phi, sigma
}

// volatility is step 5: the new volatility σ', found with the Illinois
// algorithm (regula falsi that halves the stale end's value).
func volatility(delta, phi, v, sigma, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for math.Abs(B-A) > epsilon {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
