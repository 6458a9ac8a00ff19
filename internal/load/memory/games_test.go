package memory

import (
	"context"
	"os"
	"testing"
	"time"

	"dsol/internal/load/loadtest"
)

// TestLoadGames builds live solo games of a length, past a snapshot, and
// reads the server's memory (the test process is the server).
func TestLoadGames(t *testing.T) {
	s := loadtest.MustServe(t, 100000) // the limits a run of this mode needs
	cfg := Config{Base: s.Base, Games: 60, Actions: 130, Clients: 8, Duration: 100 * time.Millisecond,
		Setup: 30 * time.Second, PIDs: []int{os.Getpid()}}
	rep, err := Games(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != 60 || rep.Players != 2 || rep.Built != 60*130 || rep.LiveTables < 60 || rep.RSSAfterKiB <= 0 || rep.Go.HeapAfterKiB <= 0 {
		t.Fatalf("report %+v", rep)
	}
	if len(rep.Errors) != 0 {
		t.Fatalf("errors %v", rep.Errors)
	}
	cfg.PIDs = nil
	if _, err := Games(context.Background(), cfg); err == nil {
		t.Fatal("games mode without --pid")
	}
}
