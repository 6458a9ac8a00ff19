package race

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden deal files in testdata")

var goldenCodes = []string{
	"DR1-D1UI-AAAAAAA",
	"DR1-D3UI-AAAAAAB",
	"DR1-D1SM-AAAAAAB",
	"DR1-D3SI-HELLOXY",
	"DR1-D1UM-ZZZZZZZ",
	// Secret deals, written by internal/cards/testdata/secret_deals.py.
	"DR2-D1UI-0000000000000000000000000000000000000000000000000000000000000000",
	"DR2-D3SM-999772D3113C8BD9878F47B52506CAC39BD5941909E5732205FE0BCDECE7FF5F",
	"DR2-D1UM-75A585956A5EA79A72AA03B9A8FEB35AB92CB6ECB266391DDDDDD89DC2D0AB5D",
}

// TestDealGolden compares DealOf with the golden deals in testdata, written
// exactly as `dsol deal` prints them (go test -run DealGolden -args -update
// rewrites them).
func TestDealGolden(t *testing.T) {
	for _, s := range goldenCodes {
		t.Run(s, func(t *testing.T) {
			got, err := json.Marshal(DealOf(mustCode(t, s)))
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", "deal-"+s+".json")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Fatalf("deal of %s:\n%s\nwant\n%s", s, got, want)
			}
		})
	}
}

// refDeck is docs/rules.md §5.2 and §5.4 written out again, independently of package
// cards: SplitMix64, rejection sampling and Fisher–Yates on S,H,D,C / A…K.
func refDeck(seed uint64) []string {
	next := func() uint64 {
		seed += 0x9E3779B97F4A7C15
		z := seed
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	var d []string
	for _, s := range "SHDC" {
		for _, r := range "A23456789TJQK" {
			d = append(d, string(r)+string(s))
		}
	}
	for i := len(d) - 1; i > 0; i-- {
		n := uint64(i + 1)
		limit := -(-n % n) // 2^64 − (2^64 mod n)
		x := next()
		for -n%n != 0 && x >= limit {
			x = next()
		}
		j := x % n
		d[i], d[j] = d[j], d[i]
	}
	return d
}

// refDeal deals a reference deck: row by row onto 7 columns, the rest the stock.
func refDeal(deck []string) SeatDeal {
	sd := SeatDeal{Columns: make([][]string, Columns)}
	i := 0
	for r := 0; r < Columns; r++ {
		for c := r; c < Columns; c++ {
			sd.Columns[c] = append(sd.Columns[c], deck[i])
			i++
		}
	}
	sd.Stock = deck[i:]
	return sd
}

// TestDealSeeds checks that seat 1 is shuffled with seed 2·deal and seat 2
// with 2·deal+1 (mirrored: seat 1's shuffle for both), that mirrored seats
// get the same layout with cards of their own deck, and that the race deals
// exactly what DealOf lists.
func TestDealSeeds(t *testing.T) {
	for _, s := range append(goldenCodes, "DR1-D1UI-BANANAS", "DR1-D3SM-QQQQQQQ") {
		code := mustCode(t, s)
		d := DealOf(code)
		for seat := 0; seat < 2 && !code.Secret; seat++ { // the DR2 golden files come from their own script
			seed := 2 * code.Deal
			if !code.Mirrored {
				seed += uint64(seat)
			}
			want, _ := json.Marshal(refDeal(refDeck(seed)))
			got, _ := json.Marshal(d.Seats[seat])
			if string(got) != string(want) {
				t.Fatalf("%s seat %d:\n%s\nwant (seed %d)\n%s", s, seat+1, got, seed, want)
			}
		}
		r := mustRace(t, s, Options{})
		b1, b2 := r.Board(1), r.Board(2)
		for i := 0; i < Columns; i++ {
			for j := 0; j < int(b1.Cols[i].N); j++ {
				c1, c2 := b1.Cols[i].Cards[j], b2.Cols[i].Cards[j]
				if c1.String() != d.Seats[0].Columns[i][j] || c2.String() != d.Seats[1].Columns[i][j] {
					t.Fatalf("%s c%d: the race deals %s/%s, DealOf lists %s/%s", s, i+1, c1, c2, d.Seats[0].Columns[i][j], d.Seats[1].Columns[i][j])
				}
				if c1.Deck() != 0 || c2.Deck() != 1 {
					t.Fatalf("%s c%d: decks %d/%d", s, i+1, c1.Deck(), c2.Deck())
				}
				if code.Mirrored && c1.Face() != c2.Face() {
					t.Fatalf("%s: mirrored seats differ at c%d", s, i+1)
				}
			}
		}
		if !code.Mirrored && b1.Cols == b2.Cols {
			t.Fatalf("%s: independent seats got the same layout", s)
		}
	}
}
