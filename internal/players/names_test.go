package players

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"io"
	"testing"

	"dsol/internal/apitest"
	"dsol/internal/game"
	"dsol/internal/names"
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
