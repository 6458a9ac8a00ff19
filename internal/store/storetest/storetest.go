// Package storetest is the contract suite of store.Store: every adapter runs
// Run against a fresh, empty database and must pass all of it.
//
// The tests of each role of store.Store are in the file of its name, as in
// the adapters (players.go, devices.go, games.go, actions.go, …); the
// property tests (property*.go) check the statistics and the daily
// leaderboard against what Go recomputes from the games read back.
package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"
	"time"

	"dsol/internal/store"
)

// Run runs the contract suite. open returns a Store over a fresh, empty
// database; the suite closes it (the adapter's cleanup may close it again).
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	t.Run("Players", func(t *testing.T) { testPlayers(t, open(t)) })
	t.Run("Games", func(t *testing.T) { testGames(t, open(t)) })
	t.Run("JoinRace", func(t *testing.T) { testJoinRace(t, open(t)) })
	t.Run("CancelRace", func(t *testing.T) { testCancelRace(t, open(t)) })
	t.Run("ListGames", func(t *testing.T) { testListGames(t, open(t)) })
	t.Run("OpenRaces", func(t *testing.T) { testOpenRaces(t, open(t)) })
	t.Run("Actions", func(t *testing.T) { testActions(t, open(t)) })
	t.Run("AppendAtomic", func(t *testing.T) { testAppendAtomic(t, open(t)) })
	t.Run("ClientID", func(t *testing.T) { testClientID(t, open(t)) })
	t.Run("ConcurrentAppends", func(t *testing.T) { testConcurrentAppends(t, open(t)) })
	t.Run("LargeBatch", func(t *testing.T) { testLargeBatch(t, open(t)) })
	t.Run("Committer", func(t *testing.T) { testCommitter(t, open(t)) })
	t.Run("DeleteAbandoned", func(t *testing.T) { testDeleteAbandoned(t, open(t)) })
	t.Run("Hints", func(t *testing.T) { testHints(t, open(t)) })
	t.Run("Checked", func(t *testing.T) { testChecked(t, open(t)) })
	t.Run("Winnable", func(t *testing.T) { testWinnable(t, open(t)) })
	t.Run("PlayedCodes", func(t *testing.T) { testPlayedCodes(t, open(t)) })
	t.Run("Stats", func(t *testing.T) { testStats(t, open(t)) })
	t.Run("StatsFigures", func(t *testing.T) { testStatsFigures(t, open(t)) })
	t.Run("StatsReset", func(t *testing.T) { testStatsReset(t, open(t)) })
	t.Run("StatsRaces", func(t *testing.T) { testStatsRaces(t, open(t)) })
	t.Run("StatsConcurrent", func(t *testing.T) { testStatsConcurrent(t, open(t)) })
	t.Run("Tokens", func(t *testing.T) { testTokens(t, open(t)) })
	t.Run("LinkCodes", func(t *testing.T) { testLinkCodes(t, open(t)) })
	t.Run("DeletePlayer", func(t *testing.T) { testDeletePlayer(t, open(t)) })
	t.Run("CheckNames", func(t *testing.T) { testCheckNames(t, open(t)) })
	t.Run("CheckNamesConcurrent", func(t *testing.T) { testCheckNamesConcurrent(t, open(t)) })
	t.Run("Blocks", func(t *testing.T) { testBlocks(t, open(t)) })
	t.Run("FinishRace", func(t *testing.T) { testFinishRace(t, open(t)) })
	t.Run("DailyChallenges", func(t *testing.T) { testDailyChallenges(t, open(t)) })
	t.Run("StartDaily", func(t *testing.T) { testStartDaily(t, open(t)) })
	t.Run("Leaderboard", func(t *testing.T) { testLeaderboard(t, open(t)) })
	t.Run("Snapshots", func(t *testing.T) { testSnapshots(t, open(t)) })
	t.Run("Arenas", func(t *testing.T) { testArenas(t, open(t)) })
}

// base is the time all fixtures are created at, with microsecond precision
// (the finest every store keeps).
var base = time.Date(2025, 3, 14, 15, 9, 26, 535897000, time.UTC)

func ctxOf(tb testing.TB) context.Context {
	tb.Helper()
	return tb.Context()
}

// NewPlayer returns a player fixture whose token hash derives from id.
func NewPlayer(id string) store.Player {
	h := sha256.Sum256([]byte("token of " + id))
	return store.Player{ID: id, Name: "name of " + id, TokenHash: h[:], CreatedAt: base}
}

// NewSolo returns a solo game fixture owned by player.
func NewSolo(id, player string, created time.Time) store.Game {
	return store.Game{
		ID: id, Kind: "solo", Code: "DS1-D1N-AAAAAAB", Status: "playing",
		Options: []byte(`{"draw":1,"scoring":"normal"}`),
		Seats:   [2]string{player, ""}, CreatedAt: created, UpdatedAt: created,
	}
}

// NewRace returns a waiting race fixture created by player.
func NewRace(id, player string, public bool, created time.Time) store.Game {
	h := sha256.Sum256([]byte("invite of " + id))
	return store.Game{
		ID: id, Kind: "race", Code: "DR1-D1U-AAAAAAB", Status: "waiting",
		Options: []byte(`{"turns":"simultaneous","series":3}`),
		Seats:   [2]string{player, ""}, Public: public, InviteHash: h[:],
		SeriesID: "series-" + id, SeriesGame: 1, CreatedAt: created, UpdatedAt: created,
		Salt: h[:16],
	}
}

// NewAction returns an action fixture of a game.
func NewAction(game string, seq int64, seat int, clientID string) store.Action {
	return store.Action{
		GameID: game, Seq: seq, Seat: seat, ClientID: clientID,
		Action: []byte(fmt.Sprintf(`{"type":"move","from":"c%d","to":"f"}`, seq%9+1)),
		At:     base.Add(time.Duration(seq) * time.Millisecond),
	}
}

func mustCreatePlayer(tb testing.TB, s store.Store, p store.Player) {
	tb.Helper()
	if err := s.CreatePlayer(ctxOf(tb), p); err != nil {
		tb.Fatalf("CreatePlayer(%s): %v", p.ID, err)
	}
}

func mustCreateGame(tb testing.TB, s store.Store, g store.Game) {
	tb.Helper()
	if err := s.CreateGame(ctxOf(tb), g); err != nil {
		tb.Fatalf("CreateGame(%s): %v", g.ID, err)
	}
}

func mustGame(tb testing.TB, s store.Store, id string) store.Game {
	tb.Helper()
	g, err := s.Game(ctxOf(tb), id)
	if err != nil {
		tb.Fatalf("Game(%s): %v", id, err)
	}
	return g
}

func mustAppend(tb testing.TB, s store.Store, actions ...store.Action) {
	tb.Helper()
	if err := s.AppendActions(ctxOf(tb), actions); err != nil {
		tb.Fatalf("AppendActions(%d actions): %v", len(actions), err)
	}
}

func mustActions(tb testing.TB, s store.Store, game string, after int64) []store.Action {
	tb.Helper()
	as, err := s.Actions(ctxOf(tb), game, after)
	if err != nil {
		tb.Fatalf("Actions(%s, %d): %v", game, after, err)
	}
	return as
}

func mustList(tb testing.TB, s store.Store, q store.GameQuery) []store.Game {
	tb.Helper()
	gs, err := s.ListGames(ctxOf(tb), q)
	if err != nil {
		tb.Fatalf("ListGames(%+v): %v", q, err)
	}
	return gs
}

func mustBeErr(tb testing.TB, what string, err, want error) {
	tb.Helper()
	if !errors.Is(err, want) {
		tb.Fatalf("%s: error %v, want %v", what, err, want)
	}
}

func mustClose(tb testing.TB, s store.Store) {
	tb.Helper()
	if err := s.Close(); err != nil {
		tb.Fatalf("Close: %v", err)
	}
}

// EqualPlayer reports the differences between two players, "" if none.
func EqualPlayer(got, want store.Player) string {
	if got.ID != want.ID || got.Name != want.Name || !bytes.Equal(got.TokenHash, want.TokenHash) ||
		!got.CreatedAt.Equal(want.CreatedAt) {
		return fmt.Sprintf("got %+v, want %+v", got, want)
	}
	return ""
}

// EqualGame reports the differences between two game headers, "" if none.
func EqualGame(got, want store.Game) string {
	if got.ID != want.ID || got.Kind != want.Kind || got.Code != want.Code ||
		!bytes.Equal(got.Options, want.Options) || got.Status != want.Status || got.Seats != want.Seats ||
		got.Public != want.Public || !bytes.Equal(got.InviteHash, want.InviteHash) ||
		got.SeriesID != want.SeriesID || got.SeriesGame != want.SeriesGame ||
		!bytes.Equal(got.Result, want.Result) || !bytes.Equal(got.Salt, want.Salt) || got.Hints != want.Hints || got.Checked != want.Checked ||
		!got.CreatedAt.Equal(want.CreatedAt) || !got.UpdatedAt.Equal(want.UpdatedAt) {
		return fmt.Sprintf("got %+v,\nwant %+v", got, want)
	}
	if (got.Options == nil) != (want.Options == nil) || (got.Result == nil) != (want.Result == nil) ||
		(got.InviteHash == nil) != (want.InviteHash == nil) || (got.Salt == nil) != (want.Salt == nil) {
		return fmt.Sprintf("nil-ness differs: got %+v,\nwant %+v", got, want)
	}
	return ""
}

// EqualActions reports the differences between two action lists, "" if none.
func EqualActions(got, want []store.Action) string {
	if len(got) != len(want) {
		return fmt.Sprintf("got %d actions, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.GameID != w.GameID || g.Seq != w.Seq || g.Seat != w.Seat || !bytes.Equal(g.Action, w.Action) ||
			g.ClientID != w.ClientID || !g.At.Equal(w.At) {
			return fmt.Sprintf("action %d: got %+v (%s), want %+v (%s)", i, g, g.Action, w, w.Action)
		}
	}
	return ""
}
