package httpapi

import (
	"context"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/game"
	"dsol/internal/store"
)

// TestMeRenamed: a player whose stored name the rules came to refuse is
// renamed by the check of stored names, and GET /api/v1/me tells them so
// until they have seen it (DELETE /api/v1/me/renamed), on both stores.
func TestMeRenamed(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		ctx := context.Background()
		st := open(t)
		ts := mustServer(t, st)
		ada := ts.mustPlayer(t)
		eve := ts.mustPlayer(t)
		// a name stored before the rules refused it
		if err := st.RenamePlayer(ctx, eve.id, "Сomputer"); err != nil {
			t.Fatal(err)
		}
		ts.clock.Advance(time.Minute)
		if n, err := ts.srv.players.CheckNames(ctx); err != nil || n != 1 {
			t.Fatalf("CheckNames: %d, %v", n, err)
		}
		var me meJSON
		eve.MustJSON(t, "GET", "/api/v1/me", nil, 200, &me)
		if me.Name != "Player "+eve.id[:4] || me.Renamed == nil || me.Renamed.From != "Сomputer" || !me.Renamed.At.Equal(ts.clock.Now()) {
			t.Fatalf("me after the renaming: %+v, %+v", me, me.Renamed)
		}
		me = meJSON{}
		ada.MustJSON(t, "GET", "/api/v1/me", nil, 200, &me)
		if me.Renamed != nil {
			t.Fatalf("a player not renamed has a notice: %+v", me.Renamed)
		}
		// seen: the notice goes, and seeing it again is no error
		for range 2 {
			if code, body := eve.Do(t, "DELETE", "/api/v1/me/renamed", nil); code != 204 {
				t.Fatalf("DELETE /api/v1/me/renamed: %d %s", code, body)
			}
		}
		me = meJSON{}
		eve.MustJSON(t, "GET", "/api/v1/me", nil, 200, &me)
		if me.Renamed != nil || me.Name != "Player "+eve.id[:4] {
			t.Fatalf("me after the notice was seen: %+v", me)
		}
		ts.anon().MustError(t, "DELETE", "/api/v1/me/renamed", nil, 401, game.Unauthorized)
	})
}

// TestMeRenamedByChoice: a player renamed by the server who chooses a name
// has no notice any more.
func TestMeRenamedByChoice(t *testing.T) {
	ctx := context.Background()
	st := apitest.SQLite(t)
	ts := mustServer(t, st)
	eve := ts.mustPlayer(t)
	if err := st.RenamePlayer(ctx, eve.id, "Deleted player"); err != nil {
		t.Fatal(err)
	}
	if _, err := ts.srv.players.CheckNames(ctx); err != nil {
		t.Fatal(err)
	}
	eve.MustJSON(t, "PATCH", "/api/v1/me", map[string]string{"name": "Eve"}, 200, nil)
	var me meJSON
	eve.MustJSON(t, "GET", "/api/v1/me", nil, 200, &me)
	if me.Name != "Eve" || me.Renamed != nil {
		t.Fatalf("me after choosing a name: %+v", me)
	}
}
