package storetest

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"testing"
	"time"

	"dsol/internal/store"
)

// hashOf is a token or code hash fixture.
func hashOf(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

func mustTokens(tb testing.TB, s store.Store, player string) []store.Token {
	tb.Helper()
	toks, err := s.Tokens(ctxOf(tb), player)
	if err != nil {
		tb.Fatalf("Tokens(%s): %v", player, err)
	}
	return toks
}

// testTokens: a player's tokens (one per device) find the player until
// revoked, one or all at once, and never another player's.
func testTokens(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	alice, bob := NewPlayer("alice"), NewPlayer("bob")
	mustCreatePlayer(t, s, alice)
	mustCreatePlayer(t, s, bob)
	second := hashOf("alice's phone")
	mustPutLinkCode(t, s, store.LinkCode{PlayerID: "alice", Hash: hashOf("code"), Expires: base.Add(time.Minute), CreatedAt: base})
	if _, err := s.RedeemLinkCode(ctx, hashOf("code"), second, base.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	toks := mustTokens(t, s, "alice")
	if len(toks) != 2 || !bytes.Equal(toks[0].Hash, alice.TokenHash) || !bytes.Equal(toks[1].Hash, second) ||
		!toks[0].CreatedAt.Equal(base) || !toks[1].CreatedAt.Equal(base.Add(time.Second)) {
		t.Fatalf("tokens of alice: %+v", toks)
	}
	for _, h := range [][]byte{alice.TokenHash, second} {
		p, err := s.PlayerByTokenHash(ctx, h)
		if err != nil || p.ID != "alice" || !bytes.Equal(p.TokenHash, h) {
			t.Fatalf("PlayerByTokenHash(%x): %+v, %v", h, p, err)
		}
	}

	if err := s.RevokeToken(ctx, second); err != nil {
		t.Fatal(err)
	}
	_, err := s.PlayerByTokenHash(ctx, second)
	mustBeErr(t, "the revoked token", err, store.ErrNotFound)
	mustBeErr(t, "RevokeToken again", s.RevokeToken(ctx, second), store.ErrNotFound)
	if _, err := s.PlayerByTokenHash(ctx, alice.TokenHash); err != nil {
		t.Fatalf("the other token after revoking one: %v", err)
	}

	n, err := s.RevokeTokens(ctx, "alice")
	if err != nil || n != 1 {
		t.Fatalf("RevokeTokens: %d, %v; want 1", n, err)
	}
	_, err = s.PlayerByTokenHash(ctx, alice.TokenHash)
	mustBeErr(t, "a token after RevokeTokens", err, store.ErrNotFound)
	if toks := mustTokens(t, s, "alice"); len(toks) != 0 {
		t.Fatalf("tokens after RevokeTokens: %+v", toks)
	}
	if _, err := s.Player(ctx, "alice"); err != nil {
		t.Fatalf("the player after RevokeTokens: %v", err)
	}
	if p, err := s.PlayerByTokenHash(ctx, bob.TokenHash); err != nil || p.ID != "bob" {
		t.Fatalf("bob after alice signed out everywhere: %+v, %v", p, err)
	}
}

func mustPutLinkCode(tb testing.TB, s store.Store, c store.LinkCode) {
	tb.Helper()
	if err := s.PutLinkCode(ctxOf(tb), c); err != nil {
		tb.Fatalf("PutLinkCode(%s): %v", c.PlayerID, err)
	}
}

// testLinkCodes: a transfer code is stored by its hash, replaced by the
// next one, works once and not after it expired.
func testLinkCodes(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	mustCreatePlayer(t, s, NewPlayer("alice"))
	mustCreatePlayer(t, s, NewPlayer("bob"))
	expires := base.Add(10 * time.Minute)
	old := store.LinkCode{PlayerID: "alice", Hash: hashOf("old"), Expires: expires, CreatedAt: base}
	mustPutLinkCode(t, s, old)
	got, err := s.LinkCode(ctx, "alice")
	if err != nil || got.PlayerID != "alice" || !bytes.Equal(got.Hash, old.Hash) || !got.Expires.Equal(expires) ||
		!got.UsedAt.IsZero() || !got.CreatedAt.Equal(base) {
		t.Fatalf("LinkCode: %+v, %v", got, err)
	}
	code := store.LinkCode{PlayerID: "alice", Hash: hashOf("new"), Expires: expires.Add(time.Second), CreatedAt: base.Add(time.Second)}
	mustPutLinkCode(t, s, code)
	_, err = s.RedeemLinkCode(ctx, old.Hash, hashOf("t0"), base.Add(2*time.Second))
	mustBeErr(t, "the replaced code", err, store.ErrNotFound)

	t.Run("Once", func(t *testing.T) {
		at := base.Add(3 * time.Second)
		c, err := s.RedeemLinkCode(ctx, code.Hash, hashOf("t1"), at)
		if err != nil || c.PlayerID != "alice" || !c.UsedAt.Equal(at) {
			t.Fatalf("RedeemLinkCode: %+v, %v", c, err)
		}
		c, err = s.RedeemLinkCode(ctx, code.Hash, hashOf("t2"), at.Add(time.Second))
		mustBeErr(t, "a second use", err, store.ErrConflict)
		if !c.UsedAt.Equal(at) {
			t.Fatalf("the used code: %+v", c)
		}
		_, err = s.PlayerByTokenHash(ctx, hashOf("t2"))
		mustBeErr(t, "the token of a second use", err, store.ErrNotFound)
		if p, err := s.PlayerByTokenHash(ctx, hashOf("t1")); err != nil || p.ID != "alice" {
			t.Fatalf("the token of the first use: %+v, %v", p, err)
		}
	})
	t.Run("Expired", func(t *testing.T) {
		c := store.LinkCode{PlayerID: "bob", Hash: hashOf("bob's"), Expires: expires, CreatedAt: base}
		mustPutLinkCode(t, s, c)
		got, err := s.RedeemLinkCode(ctx, c.Hash, hashOf("t3"), expires)
		mustBeErr(t, "an expired code", err, store.ErrConflict)
		if !got.UsedAt.IsZero() || !got.Expires.Equal(expires) {
			t.Fatalf("the expired code: %+v", got)
		}
		_, err = s.PlayerByTokenHash(ctx, hashOf("t3"))
		mustBeErr(t, "the token of an expired code", err, store.ErrNotFound)
	})
	t.Run("Concurrent", func(t *testing.T) {
		c := store.LinkCode{PlayerID: "bob", Hash: hashOf("raced"), Expires: expires, CreatedAt: base}
		mustPutLinkCode(t, s, c)
		const n = 8
		errs := make(chan error, n)
		for i := range n {
			go func() {
				_, err := s.RedeemLinkCode(ctx, c.Hash, hashOf("raced token "+string(rune('a'+i))), base)
				errs <- err
			}()
		}
		won := 0
		for range n {
			if err := <-errs; err == nil {
				won++
			} else if !errors.Is(err, store.ErrConflict) {
				t.Errorf("a concurrent redeem: %v", err)
			}
		}
		if won != 1 {
			t.Fatalf("%d of %d concurrent redeems succeeded, want 1", won, n)
		}
	})
	t.Run("NotFound", func(t *testing.T) {
		_, err := s.LinkCode(ctx, "carol")
		mustBeErr(t, "LinkCode(carol)", err, store.ErrNotFound)
		err = s.PutLinkCode(ctx, store.LinkCode{PlayerID: "carol", Hash: hashOf("c"), Expires: expires, CreatedAt: base})
		mustBeErr(t, "PutLinkCode(carol)", err, store.ErrNotFound)
	})
}
