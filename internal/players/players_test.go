package players

import (
	"context"
	"crypto/rand"
	"errors"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/game"
	"dsol/internal/store"
)

func mustService(tb testing.TB) (*Service, store.Store, *apitest.Clock) {
	tb.Helper()
	st := apitest.SQLite(tb)
	clock := apitest.NewClock()
	return New(Config{Store: st, Clock: clock.Now, Random: rand.Reader}), st, clock
}

func codeOf(err error) game.Code {
	var e *game.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// TestTokens: a new player signs in with their token, under a name of its
// own when none was given; a rename shows at once, through the cache; once
// every token is revoked none signs in, on this node at once.
func TestTokens(t *testing.T) {
	ctx := context.Background()
	s, _, _ := mustService(t)
	p, tok, err := s.Create(ctx, "")
	if err != nil || tok == "" || len(p.Name) != len("Player ")+4 || p.Name[:7] != "Player " {
		t.Fatalf("create: %+v %q %v", p, tok, err)
	}
	got, err := s.ByToken(ctx, tok)
	if err != nil || got.ID != p.ID {
		t.Fatalf("by token: %+v %v", got, err)
	}
	if err := s.Rename(ctx, p.ID, "Ada"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.ByToken(ctx, tok); err != nil || got.Name != "Ada" {
		t.Fatalf("after the rename: %+v %v", got, err)
	}
	if err := s.LogoutAll(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ByToken(ctx, tok); codeOf(err) != game.Unauthorized {
		t.Fatalf("a revoked token: %v", err)
	}
	if _, err := s.ByToken(ctx, "nonsense"); codeOf(err) != game.Unauthorized {
		t.Fatalf("an unknown token: %v", err)
	}
}

// TestLink: a transfer code signs another device in once, until it
// expires.
func TestLink(t *testing.T) {
	ctx := context.Background()
	s, _, clock := mustService(t)
	p, _, err := s.Create(ctx, "Ada")
	if err != nil {
		t.Fatal(err)
	}
	shown, expires, err := s.NewLink(ctx, p.ID)
	if err != nil || !expires.Equal(clock.Now().Add(LinkTTL)) {
		t.Fatalf("new link: %q %v %v", shown, expires, err)
	}
	code, err := NormalLinkCode(shown)
	if err != nil || GroupLinkCode(code) != shown {
		t.Fatalf("%q reads as %q, %v", shown, code, err)
	}
	id, tok, err := s.Redeem(ctx, code)
	if err != nil || id != p.ID {
		t.Fatalf("redeem: %q %v", id, err)
	}
	if got, err := s.ByToken(ctx, tok); err != nil || got.ID != p.ID {
		t.Fatalf("the new device: %+v %v", got, err)
	}
	if _, _, err := s.Redeem(ctx, code); codeOf(err) != game.Expired {
		t.Fatalf("redeemed twice: %v", err)
	}
	shown, _, _ = s.NewLink(ctx, p.ID)
	clock.Advance(LinkTTL + time.Second)
	code, _ = NormalLinkCode(shown)
	if _, _, err := s.Redeem(ctx, code); codeOf(err) != game.Expired {
		t.Fatalf("redeemed late: %v", err)
	}
	if _, _, err := s.Redeem(ctx, "000000000000"); codeOf(err) != game.NotFound {
		t.Fatalf("no such code: %v", err)
	}
}

// TestGames: a player's games come newest first, a page at a time, without
// the code of a race still in play; a cursor that is not the service's is
// a bad_request.
func TestGames(t *testing.T) {
	ctx := context.Background()
	s, st, clock := mustService(t)
	p, _, err := s.Create(ctx, "Ada")
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range []store.Game{
		{ID: "s1", Kind: game.KindSolo, Code: "DS1-D1N-AAAAAAB", Status: game.Playing},
		{ID: "r1", Kind: game.KindRace, Code: "DR1-D1UI-AAAAAAB", Status: game.Waiting},
		{ID: "s2", Kind: game.KindSolo, Code: "DS1-D1N-AAAAAAC", Status: game.Playing},
	} {
		g.Seats = [2]string{p.ID}
		g.CreatedAt, g.UpdatedAt = clock.Now().Add(time.Duration(i)*time.Second), clock.Now()
		if err := st.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	page, err := s.Games(ctx, p.ID, GameFilter{Limit: 2})
	if err != nil || len(page.Games) != 2 || page.Games[0].ID != "s2" || page.Games[1].ID != "r1" || page.Next == "" {
		t.Fatalf("first page: %+v %v", page, err)
	}
	if page.Games[1].Code != "" || page.Games[0].Code == "" || page.Games[0].Seat != 1 {
		t.Fatalf("codes and seats: %+v", page.Games)
	}
	page, err = s.Games(ctx, p.ID, GameFilter{Limit: 2, Cursor: page.Next})
	if err != nil || len(page.Games) != 1 || page.Games[0].ID != "s1" || page.Next != "" {
		t.Fatalf("second page: %+v %v", page, err)
	}
	if _, err := s.Games(ctx, p.ID, GameFilter{Limit: 2, Cursor: "nope"}); codeOf(err) != game.BadRequest {
		t.Fatalf("a bad cursor: %v", err)
	}
}

// TestCheckToken: a token's check answers, from the node's sign-in cache,
// how long the answer holds (the cache's lifetime, Config.AuthTTL, from
// when the token was last read from the store); a token revoked on
// another node over the same store is unauthorized here once this node's
// entry runs out, and at once when revoked here.
func TestCheckToken(t *testing.T) {
	ctx := context.Background()
	st := apitest.SQLite(t)
	clock := apitest.NewClock()
	const ttl = 30 * time.Second
	here := New(Config{Store: st, Clock: clock.Now, Random: rand.Reader, AuthTTL: ttl})
	there := New(Config{Store: st, Clock: clock.Now, Random: rand.Reader})
	p, tok, err := here.Create(ctx, "Ada")
	if err != nil {
		t.Fatal(err)
	}
	if valid, err := here.CheckToken(ctx, hashToken(tok)); err != nil || valid != ttl {
		t.Fatalf("first check: %v %v, want %v", valid, err, ttl)
	}
	clock.Advance(10 * time.Second)
	if valid, err := here.CheckToken(ctx, hashToken(tok)); err != nil || valid != ttl-10*time.Second {
		t.Fatalf("from the cache: %v %v", valid, err)
	}
	if err := there.LogoutAll(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	clock.Advance(19 * time.Second)
	if _, err := here.CheckToken(ctx, hashToken(tok)); err != nil {
		t.Fatalf("revoked on another node, within the cache's lifetime: %v", err)
	}
	clock.Advance(time.Second)
	if _, err := here.CheckToken(ctx, hashToken(tok)); codeOf(err) != game.Unauthorized {
		t.Fatalf("revoked on another node, once the entry ran out: %v", err)
	}
	if _, err := here.ByToken(ctx, tok); codeOf(err) != game.Unauthorized {
		t.Fatalf("ByToken agrees: %v", err)
	}

	// Revoked here: at once.
	p2, tok2, err := here.Create(ctx, "Bob")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := here.CheckToken(ctx, hashToken(tok2)); err != nil {
		t.Fatal(err)
	}
	p2.TokenHash = hashToken(tok2)
	if err := here.Logout(ctx, p2); err != nil {
		t.Fatal(err)
	}
	if _, err := here.CheckToken(ctx, hashToken(tok2)); codeOf(err) != game.Unauthorized {
		t.Fatalf("revoked here: %v", err)
	}
	if valid, err := there.CheckToken(ctx, hashToken("nonsense")); codeOf(err) != game.Unauthorized || valid != 0 {
		t.Fatalf("an unknown token: %v %v", valid, err)
	}
}
