package storetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"dsol/internal/store"
)

// blockPairs spells blocks as "player>blocked", sorted.
func blockPairs(bs []store.Block) []string {
	out := make([]string, 0, len(bs))
	for _, b := range bs {
		out = append(out, b.PlayerID+">"+b.BlockedID)
	}
	slices.Sort(out)
	return out
}

func mustBlocksAmong(tb testing.TB, s store.Store, ids ...string) []string {
	tb.Helper()
	bs, err := s.BlocksAmong(ctxOf(tb), ids)
	if err != nil {
		tb.Fatalf("BlocksAmong(%v): %v", ids, err)
	}
	return blockPairs(bs)
}

func testBlocks(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	for _, id := range []string{"alice", "bob", "carol", "dave"} {
		mustCreatePlayer(t, s, NewPlayer(id))
	}
	block := func(a, b string, at time.Time) {
		t.Helper()
		if err := s.Block(ctx, a, b, at); err != nil {
			t.Fatalf("Block(%s, %s): %v", a, b, err)
		}
	}
	block("alice", "carol", base.Add(time.Second))
	block("alice", "bob", base)
	block("alice", "bob", base.Add(time.Hour)) // again: kept as it was
	block("carol", "alice", base)
	block("dave", "bob", base)

	bs, err := s.Blocks(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range bs {
		got = append(got, fmt.Sprintf("%s %s %s %s", b.PlayerID, b.BlockedID, b.BlockedName, b.CreatedAt.Format(time.RFC3339Nano)))
	}
	want := []string{
		"alice bob name of bob " + base.Format(time.RFC3339Nano),
		"alice carol name of carol " + base.Add(time.Second).Format(time.RFC3339Nano),
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Blocks(alice):\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if bs, err := s.Blocks(ctx, "bob"); err != nil || len(bs) != 0 {
		t.Fatalf("Blocks(bob) = %v, %v; want none", bs, err)
	}
	if got := mustBlocksAmong(t, s, "bob"); !slices.Equal(got, []string{"alice>bob", "dave>bob"}) {
		t.Fatalf("BlocksAmong(bob) = %v", got)
	}
	if got := mustBlocksAmong(t, s, "carol", "dave"); !slices.Equal(got, []string{"alice>carol", "carol>alice", "dave>bob"}) {
		t.Fatalf("BlocksAmong(carol, dave) = %v", got)
	}
	if got := mustBlocksAmong(t, s); len(got) != 0 {
		t.Fatalf("BlocksAmong() = %v", got)
	}

	mustBeErr(t, "Block of an unknown player", s.Block(ctx, "alice", "nobody", base), store.ErrNotFound)
	mustBeErr(t, "Block by an unknown player", s.Block(ctx, "nobody", "alice", base), store.ErrNotFound)

	if err := s.Unblock(ctx, "alice", "bob"); err != nil {
		t.Fatal(err)
	}
	if err := s.Unblock(ctx, "alice", "bob"); err != nil {
		t.Fatalf("Unblock again: %v", err)
	}
	if got := mustBlocksAmong(t, s, "bob"); !slices.Equal(got, []string{"dave>bob"}) {
		t.Fatalf("BlocksAmong(bob) after the unblock = %v", got)
	}

	// Deleting a player takes their blocks both ways.
	if _, err := s.DeletePlayer(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	if got := mustBlocksAmong(t, s, "alice", "carol"); len(got) != 0 {
		t.Fatalf("blocks of alice after DeletePlayer: %v", got)
	}
	if got := mustBlocksAmong(t, s, "dave"); !slices.Equal(got, []string{"dave>bob"}) {
		t.Fatalf("dave's block after alice left: %v", got)
	}
}
