package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/coder/websocket/wsjson"
)

// TestServeLobbySocket checks that dsol serve mounts the lobby socket, sends
// the list on connect and on a new public race, and closes it with 1012 on
// shutdown.
func TestServeLobbySocket(t *testing.T) {
	s := mustServe(t, map[string]string{"DATABASE_URL": filepath.Join(t.TempDir(), "l.db")})
	var p struct{ Token string }
	s.call(t, "POST", "/api/v1/players", "", `{}`, 201, &p)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := s.mustDial(ctx, t, "/api/v1/lobby/ws", p.Token)
	type list struct {
		Type  string
		Races []struct{ ID string }
	}
	var l list
	if err := wsjson.Read(ctx, c, &l); err != nil || l.Type != "lobby" || len(l.Races) != 0 {
		t.Fatalf("first message %+v, %v; want an empty lobby", l, err)
	}
	var r struct{ ID string }
	s.call(t, "POST", "/api/v1/races", p.Token, `{}`, 201, &r)
	if err := wsjson.Read(ctx, c, &l); err != nil || len(l.Races) != 1 || l.Races[0].ID != r.ID {
		t.Fatalf("after a new race %+v, %v; want %s", l, err, r.ID)
	}

	s.stop(t)
	mustRestartClose(ctx, t, c)
}
