package solo

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden deal files in testdata from DealOf")

// The golden files were first written by an independent implementation of
// docs/rules.md §5 (a short Python script), not by DealOf; the DS2 ones by
// internal/cards/testdata/secret_deals.py.
func TestDealGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "DS?-*.json"))
	if err != nil || len(files) < 5 {
		t.Fatalf("want at least 5 golden deals in testdata, found %d (%v)", len(files), err)
	}
	for _, file := range files {
		code := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(code, func(t *testing.T) {
			got := DealOf(mustCode(t, code))
			if *update {
				data, err := json.Marshal(got)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, append(data, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var want Deal
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("DealOf(%s) =\n%+v\nwant\n%+v", code, got, want)
			}
			checkDealShape(t, got)
			// The game deals the same cards.
			g := mustNew(t, code)
			for i, col := range got.Columns {
				c := &g.Board().Cols[i]
				if int(c.N) != i+1 || int(c.Down) != i || strings.Join(Texts(c.Cards[:c.N]), " ") != strings.Join(col, " ") {
					t.Errorf("game column %d differs from the deal", i+1)
				}
			}
			if strings.Join(Texts(g.Board().StockCards()), " ") != strings.Join(got.Stock, " ") {
				t.Error("game stock differs from the deal")
			}
		})
	}
}

// checkDealShape checks 9 columns of 1…9 cards, 59 stock cards and every
// face exactly twice.
func checkDealShape(t *testing.T, d Deal) {
	t.Helper()
	count := map[string]int{}
	for i, col := range d.Columns {
		if len(col) != i+1 {
			t.Errorf("column %d has %d cards", i+1, len(col))
		}
		for _, c := range col {
			count[c]++
		}
	}
	if len(d.Stock) != 59 {
		t.Errorf("stock has %d cards", len(d.Stock))
	}
	for _, c := range d.Stock {
		count[c]++
	}
	if len(count) != 52 {
		t.Errorf("%d distinct faces, want 52", len(count))
	}
	for c, n := range count {
		if n != 2 {
			t.Errorf("%s appears %d times", c, n)
		}
	}
}
