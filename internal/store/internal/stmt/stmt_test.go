package stmt

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"dsol/internal/store"
)

func TestPlaceholders(t *testing.T) {
	for n, want := range map[int]string{1: "$1", 3: "$1, $2, $3"} {
		if got := placeholders(n); got != want {
			t.Errorf("placeholders(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestAddRaceRatingTakesEveryColumn(t *testing.T) {
	list := AddRaceRating[strings.Index(AddRaceRating, "(")+1 : strings.Index(AddRaceRating, ")")]
	columns := len(strings.Split(list, ","))
	if got := strings.Count(AddRaceRating, "$"); got != columns || !strings.Contains(AddRaceRating, "$"+strconv.Itoa(columns)+")") {
		t.Fatalf("AddRaceRating has %d parameters for its %d columns: %s", got, columns, AddRaceRating)
	}
}

func TestListGames(t *testing.T) {
	at := time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC)
	micros := func(t time.Time) any { return t.UnixMicro() }
	head := `SELECT ` + GameColumns + ` FROM games WHERE (seat1 = $1 OR seat2 = $1)`
	order := ` ORDER BY created_at DESC, id DESC`
	for _, tc := range []struct {
		name string
		q    store.GameQuery
		sql  string
		args []any
	}{
		{"all", store.GameQuery{Player: "p"}, head + order, []any{"p"}},
		{"limit", store.GameQuery{Player: "p", Limit: 5}, head + order + ` LIMIT $2`, []any{"p", 5}},
		{"kind", store.GameQuery{Player: "p", Kind: "race", Limit: 5}, head + ` AND kind = $2` + order + ` LIMIT $3`, []any{"p", "race", 5}},
		{"every filter", store.GameQuery{Player: "p", Status: "won", Kind: "solo", Limit: 2, After: store.GameKey{CreatedAt: at, ID: "g"}},
			head + ` AND status = $2 AND kind = $3 AND (created_at < $4 OR (created_at = $4 AND id < $5))` + order + ` LIMIT $6`,
			[]any{"p", "won", "solo", at.UnixMicro(), "g", 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sql, args := ListGames(tc.q, micros)
			if sql != tc.sql {
				t.Errorf("sql\n got %s\nwant %s", sql, tc.sql)
			}
			if !reflect.DeepEqual(args, tc.args) {
				t.Errorf("args %v, want %v", args, tc.args)
			}
		})
	}
}
