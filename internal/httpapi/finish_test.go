package httpapi

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"dsol/internal/apitest"
	"dsol/internal/finishtest"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/store"
)

// TestFinishByREST: a finish posted while cards are face down is refused
// with illegal_move; posted where the view offers it, it wins the game in
// one seq exactly as the engine does, the log stores it as one finish
// action, and after a restart the game rebuilt from the log is the same.
func TestFinishByREST(t *testing.T) {
	code, line := finishtest.Line(t, 1)
	finish := klondike.Simple(klondike.Finish)
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		st := open(t)
		ts := mustServer(t, st)
		c := ts.mustPlayer(t)
		v := c.mustGame(t, code.String())
		path := "/api/v1/games/" + v.ID + "/actions"
		body := map[string]any{"action": finish}
		c.MustError(t, "POST", path, body, 422, game.IllegalMove)
		if v.Finish {
			t.Fatal("a new game offers finish")
		}
		mirror := mustSolo(t, code.String())
		for _, a := range line {
			if _, err := mirror.Apply(a); err != nil {
				t.Fatal(err)
			}
			v = c.mustAct(t, v.ID, a)
		}
		if !v.Finish || !reflect.DeepEqual(v.View, mirror.View()) {
			t.Fatalf("at the end of the line: finish %v, view %+v\nwant %+v", v.Finish, v.View, mirror.View())
		}
		if _, err := mirror.Apply(finish); err != nil {
			t.Fatal(err)
		}
		v = c.mustAct(t, v.ID, finish)
		if v.Seq != int64(len(line)+1) || v.Status != "won" || v.Finish || !reflect.DeepEqual(v.View, mirror.View()) {
			t.Fatalf("after the finish: seq %d, %+v\nwant %+v", v.Seq, v.View, mirror.View())
		}
		c.MustError(t, "POST", path, body, 409, game.GameOver)
		c.MustError(t, "POST", path, map[string]any{"action": klondike.Simple(klondike.Undo)}, 409, game.GameOver)
		acts, err := st.Actions(context.Background(), v.ID, int64(len(line)))
		if err != nil || len(acts) != 1 || string(acts[0].Action) != `{"type":"finish"}` {
			t.Fatalf("the log after the line: %v %+v", err, acts)
		}
		var rep struct {
			Actions []struct{ Action json.RawMessage }
			Steps   []json.RawMessage
		}
		c.MustJSON(t, "GET", "/api/v1/games/"+v.ID+"/replay", nil, 200, &rep)
		if n := len(rep.Actions); n != len(line)+1 || string(rep.Actions[n-1].Action) != `{"type":"finish"}` || len(rep.Steps) != n {
			t.Fatalf("the replay has %d actions (%d steps), the last %s", n, len(rep.Steps), rep.Actions[n-1].Action)
		}

		c.restart(t, st, open)
		var after view
		c.MustJSON(t, "GET", "/api/v1/games/"+v.ID, nil, 200, &after)
		if !reflect.DeepEqual(after, v) {
			t.Fatalf("after a restart:\n got %+v\nwant %+v", after, v)
		}
	})
}

// TestRaceRefusesFinish: finish is a solo action; a race refuses it as it
// refuses undo, with bad_request, and nothing is stored.
func TestRaceRefusesFinish(t *testing.T) {
	ts := mustRaceServer(t, apitest.SQLite(t))
	ada, bob := ts.mustPlayer(t), ts.mustPlayer(t)
	v := ada.mustRace(t, map[string]any{"code": "DR1-D1UI-QWERTYU"})
	bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/join", map[string]string{"invite": v.Invite}, 200, nil)
	ada.MustError(t, "POST", "/api/v1/games/"+v.ID+"/actions", map[string]any{"action": map[string]string{"type": "finish"}}, 400, game.BadRequest)
	if after := ada.mustView(t, v.ID); after.Seq != 0 || after.Status != "playing" {
		t.Fatalf("after a refused finish: seq %d, status %s", after.Seq, after.Status)
	}
}
