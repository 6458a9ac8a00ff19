package main

import (
	"path/filepath"
	"testing"

	"github.com/coder/websocket"
)

// TestServeLobbySocket checks that dsol serve mounts the lobby socket, sends
// the list on connect and on a new public race, and closes it with 1012 on
// shutdown.
func TestServeLobbySocket(t *testing.T) {
	s := mustServe(t, map[string]string{"DATABASE_URL": filepath.Join(t.TempDir(), "l.db")})
	var p struct{ Token string }
	s.call(t, "POST", "/api/v1/players", "", `{}`, 201, &p)

	c := s.client(p.Token).Dial(t, "/api/v1/lobby/ws", nil)
	type list struct {
		Type  string
		Races []struct{ ID string }
	}
	var l list
	if c.ReadJSON(&l); l.Type != "lobby" || len(l.Races) != 0 {
		t.Fatalf("first message %+v; want an empty lobby", l)
	}
	var r struct{ ID string }
	s.call(t, "POST", "/api/v1/races", p.Token, `{}`, 201, &r)
	if c.ReadJSON(&l); len(l.Races) != 1 || l.Races[0].ID != r.ID {
		t.Fatalf("after a new race %+v; want %s", l, r.ID)
	}

	s.stop(t)
	c.MustClosed(websocket.StatusServiceRestart)
}
