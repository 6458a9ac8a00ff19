package players

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"io"
	"strings"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/game"
	"dsol/internal/names"
	"dsol/internal/store"
)

// TestNameRules: the service refuses a name the naming rules refuse, the
// operator's reserved names among them, for a new player and a rename.
func TestNameRules(t *testing.T) {
	ctx := context.Background()
	s := New(Config{Store: apitest.SQLite(t), Clock: apitest.NewClock().Now, Names: names.New("Admin")})
	for _, bad := range []string{"Сomputer", "Deleted player", "Аdmin", "fuсk", "\u3164"} {
		if _, _, err := s.Create(ctx, bad); codeOf(err) != game.BadRequest {
			t.Errorf("Create(%q): %v", bad, err)
		}
	}
	p, _, err := s.Create(ctx, "Ada")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Rename(ctx, p.ID, "ADMIN"); codeOf(err) != game.BadRequest {
		t.Errorf("Rename to ADMIN: %v", err)
	}
	if got, _ := s.Player(ctx, p.ID); got.Name != "Ada" {
		t.Errorf("the name after a refused rename: %q", got.Name)
	}
}

// TestGeneratedName: a player who chose no name gets one the rules let
// them have, though the first characters of their id spell a denied word.
func TestGeneratedName(t *testing.T) {
	id, err := base64.RawURLEncoding.DecodeString("fuckAAAAAAAAAAAA")
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Store: apitest.SQLite(t), Clock: apitest.NewClock().Now, Random: io.MultiReader(bytes.NewReader(id), rand.Reader)})
	p, _, err := s.Create(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != "fuckAAAAAAAAAAAA" || p.Name != "Player fuckA" {
		t.Fatalf("player %q named %q", p.ID, p.Name)
	}
}

// TestCheckNames: the names stored before the rules that refuse them are
// replaced by generated ones, with a notice until the player has seen it;
// the computer's and the deleted players' rows keep their names; a second
// pass finds nothing to do; other reserved names make the pass run again.
func TestCheckNames(t *testing.T) {
	ctx := context.Background()
	st := apitest.SQLite(t)
	clock := apitest.NewClock()
	stored := map[string]string{
		"computerAAAAAAAA": "Сomputer",
		"deletedpAAAAAAAA": "Deleted player",
		"adaAAAAAAAAAAAAA": "Ada",
		"adminAAAAAAAAAAA": "Admin",
		"blankAAAAAAAAAAA": "\u3164\u3164",
		store.BotPlayerID:  game.BotName,
	}
	for id, name := range stored {
		if err := st.CreatePlayer(ctx, store.Player{ID: id, Name: name, TokenHash: []byte("token of " + id), CreatedAt: clock.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	s := New(Config{Store: st, Clock: clock.Now})
	if n, err := s.CheckNames(ctx); err != nil || n != 3 {
		t.Fatalf("CheckNames: %d renamed, %v; want 3", n, err)
	}
	want := map[string]string{
		"computerAAAAAAAA":    "Player comp",
		"deletedpAAAAAAAA":    "Player dele",
		"adaAAAAAAAAAAAAA":    "Ada",
		"adminAAAAAAAAAAA":    "Admin",
		"blankAAAAAAAAAAA":    "Player blan",
		store.BotPlayerID:     game.BotName,
		store.DeletedPlayerID: "Deleted player",
	}
	for id, name := range want {
		p, err := s.Player(ctx, id)
		if err != nil || p.Name != name {
			t.Errorf("%s: %q, %v; want %q", id, p.Name, err, name)
		}
		rn, ok, err := s.Renamed(ctx, id)
		if err != nil || ok != (name != stored[id] && id != store.DeletedPlayerID) {
			t.Errorf("%s: notice %+v, %v, %v", id, rn, ok, err)
		}
		if ok && (rn.From != stored[id] || !rn.At.Equal(clock.Now())) {
			t.Errorf("%s: notice %+v, want from %q at %v", id, rn, stored[id], clock.Now())
		}
	}
	if n, err := s.CheckNames(ctx); err != nil || n != 0 {
		t.Fatalf("CheckNames again: %d renamed, %v", n, err)
	}

	// the player sees the notice; it is in their export until then
	head, _, err := s.Export(ctx, "computerAAAAAAAA")
	if err != nil || head.Renamed == nil || head.Renamed.From != "Сomputer" {
		t.Fatalf("export: %+v, %v", head.Renamed, err)
	}
	if err := s.ClearRenamed(ctx, "computerAAAAAAAA"); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Renamed(ctx, "computerAAAAAAAA"); ok || err != nil {
		t.Fatalf("a notice seen: %v, %v", ok, err)
	}
	if head, _, err := s.Export(ctx, "computerAAAAAAAA"); err != nil || head.Renamed != nil {
		t.Fatalf("export after the notice was seen: %+v, %v", head.Renamed, err)
	}

	// the operator reserves a name: its holder is renamed at the next pass
	clock.Advance(time.Hour)
	s = New(Config{Store: st, Clock: clock.Now, Names: names.New("Admin")})
	if n, err := s.CheckNames(ctx); err != nil || n != 1 {
		t.Fatalf("CheckNames with an operator's list: %d renamed, %v", n, err)
	}
	if p, _ := s.Player(ctx, "adminAAAAAAAAAAA"); !strings.HasPrefix(p.Name, "Player ") {
		t.Fatalf("the holder of a reserved name is named %q", p.Name)
	}
}
