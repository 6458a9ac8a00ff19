package storetest

import (
	"cmp"
	"slices"
	"sync"
	"testing"
	"time"

	"dsol/internal/store"
)

// nameChecker is a check function of CheckNames that renames the names of
// bad to prefix ("Player " if none) and the id, and records whom it was
// asked about.
type nameChecker struct {
	bad    map[string]bool
	prefix string

	mu    sync.Mutex
	asked []string
}

func (c *nameChecker) check(id, name string) string {
	c.mu.Lock()
	c.asked = append(c.asked, id)
	c.mu.Unlock()
	if c.bad[name] {
		return cmp.Or(c.prefix, "Player ") + id
	}
	return ""
}

// took returns the ids asked about since the last call, sorted.
func (c *nameChecker) took() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Sorted(slices.Values(c.asked))
	c.asked = nil
	return slices.Compact(out)
}

func mustCheckNames(tb testing.TB, s store.Store, rules string, at time.Time, batch int, c *nameChecker) int {
	tb.Helper()
	n, err := s.CheckNames(ctxOf(tb), rules, at, batch, c.check)
	if err != nil {
		tb.Fatalf("CheckNames(%s): %v", rules, err)
	}
	return n
}

func mustPlayer(tb testing.TB, s store.Store, id string) store.Player {
	tb.Helper()
	p, err := s.Player(ctxOf(tb), id)
	if err != nil {
		tb.Fatalf("Player(%s): %v", id, err)
	}
	return p
}

func mustRenamed(tb testing.TB, s store.Store, id string) store.Renamed {
	tb.Helper()
	r, err := s.Renamed(ctxOf(tb), id)
	if err != nil {
		tb.Fatalf("Renamed(%s): %v", id, err)
	}
	return r
}

// testCheckNames: the names not checked under the rules are passed to the
// check, in batches, and those it refuses are renamed with a notice; a
// name checked is not passed again under the same rules, but is after it
// changes or under other rules; the notice stays until cleared or the
// player renames themselves, and a later renaming replaces it.
func testCheckNames(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	for id, name := range map[string]string{"alice": "Сomputer", "bob": "Bob", "carol": "Deleted player", "dave": "Dave", "erin": "Erin"} {
		p := NewPlayer(id)
		p.Name = name
		mustCreatePlayer(t, s, p)
	}
	c := &nameChecker{bad: map[string]bool{"Сomputer": true, "Deleted player": true}}
	everyone := []string{"alice", "bob", "carol", "dave", store.DeletedPlayerID, "erin"}
	at := base.Add(time.Hour)
	// the row of deleted players is the caller's to keep (the check
	// renames it here: it is only a name to the store)
	if n := mustCheckNames(t, s, "r1", at, 2, c); n != 3 {
		t.Fatalf("CheckNames renamed %d players, want 3", n)
	}
	if got := c.took(); !slices.Equal(got, everyone) {
		t.Fatalf("checked %v, want %v", got, everyone)
	}
	for id, from := range map[string]string{"alice": "Сomputer", "carol": "Deleted player", store.DeletedPlayerID: "Deleted player"} {
		if p := mustPlayer(t, s, id); p.Name != "Player "+id {
			t.Errorf("%s is named %q after the check", id, p.Name)
		}
		if r := mustRenamed(t, s, id); r.From != from || !r.At.Equal(at) {
			t.Errorf("the notice of %s: %+v, want from %q at %v", id, r, from, at)
		}
	}
	_, err := s.Renamed(ctx, "bob")
	mustBeErr(t, "Renamed of a player never renamed", err, store.ErrNotFound)
	_, err = s.Renamed(ctx, "nobody")
	mustBeErr(t, "Renamed of nobody", err, store.ErrNotFound)
	if p := mustPlayer(t, s, "bob"); p.Name != "Bob" {
		t.Errorf("bob is named %q after the check", p.Name)
	}

	// the same rules again: nothing to check
	if n := mustCheckNames(t, s, "r1", at, 2, c); n != 0 || len(c.took()) != 0 {
		t.Fatalf("the same rules again renamed %d", n)
	}
	// a name changed and a player created since are checked again
	if err := s.RenamePlayer(ctx, "bob", "Deleted player"); err != nil {
		t.Fatal(err)
	}
	p := NewPlayer("frank")
	mustCreatePlayer(t, s, p)
	if n := mustCheckNames(t, s, "r1", at.Add(time.Minute), 0, c); n != 1 {
		t.Fatalf("CheckNames after a rename renamed %d players, want 1", n)
	}
	if got := c.took(); !slices.Equal(got, []string{"bob", "frank"}) {
		t.Fatalf("checked %v, want bob and frank", got)
	}
	if r := mustRenamed(t, s, "bob"); r.From != "Deleted player" || !r.At.Equal(at.Add(time.Minute)) {
		t.Errorf("bob's notice: %+v", r)
	}

	// a player who renames themselves has no notice any more
	if err := s.RenamePlayer(ctx, "alice", "Alice"); err != nil {
		t.Fatal(err)
	}
	_, err = s.Renamed(ctx, "alice")
	mustBeErr(t, "Renamed after the player's own rename", err, store.ErrNotFound)

	// other rules: everyone again, and a renaming replaces the notice
	c.bad, c.prefix = map[string]bool{"Player carol": true}, "Guest "
	if n := mustCheckNames(t, s, "r2", at.Add(time.Hour), 1, c); n != 1 {
		t.Fatalf("CheckNames of other rules renamed %d players, want 1", n)
	}
	if got := c.took(); !slices.Equal(got, []string{"alice", "bob", "carol", "dave", store.DeletedPlayerID, "erin", "frank"}) {
		t.Fatalf("other rules checked %v, want everyone", got)
	}
	if r := mustRenamed(t, s, "carol"); r.From != "Player carol" || !r.At.Equal(at.Add(time.Hour)) {
		t.Errorf("carol's notice after a second renaming: %+v", r)
	}

	// clearing the notice
	if err := s.ClearRenamed(ctx, "carol"); err != nil {
		t.Fatal(err)
	}
	_, err = s.Renamed(ctx, "carol")
	mustBeErr(t, "Renamed after ClearRenamed", err, store.ErrNotFound)
	if err := s.ClearRenamed(ctx, "dave"); err != nil {
		t.Fatalf("ClearRenamed without a notice: %v", err)
	}
	mustBeErr(t, "ClearRenamed of nobody", s.ClearRenamed(ctx, "nobody"), store.ErrNotFound)
	if p := mustPlayer(t, s, "carol"); p.Name != "Guest carol" {
		t.Errorf("carol is named %q after clearing the notice", p.Name)
	}
}

// testCheckNamesConcurrent: checks that run at once (several nodes
// starting) rename each player once, with the name they had.
func testCheckNamesConcurrent(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	const players = 60
	bad := map[string]bool{}
	for i := range players {
		p := NewPlayer(string(rune('a'+i/26)) + string(rune('a'+i%26)))
		if i%3 == 0 {
			p.Name = "bad " + p.ID
			bad[p.Name] = true
		}
		mustCreatePlayer(t, s, p)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for range 4 {
		wg.Go(func() {
			c := &nameChecker{bad: bad}
			n := mustCheckNames(t, s, "r1", base, 7, c)
			mu.Lock()
			total += n
			mu.Unlock()
		})
	}
	wg.Wait()
	// a caller that found another at work left the rest to it: one more
	// call finishes whatever is left
	total += mustCheckNames(t, s, "r1", base, 7, &nameChecker{bad: bad})
	if total != len(bad) {
		t.Fatalf("%d renamings of %d bad names", total, len(bad))
	}
	for name := range bad {
		id := name[len("bad "):]
		if r := mustRenamed(t, s, id); r.From != name {
			t.Errorf("%s's notice: %+v, want from %q", id, r, name)
		}
	}
}
