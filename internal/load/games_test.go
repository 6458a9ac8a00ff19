package load

import (
	"context"
	"io"
	"os"
	"strconv"
	"testing"
)

// TestLoadGames builds live solo games of a length, past a snapshot, and
// reads the server's memory (the test process is the server).
func TestLoadGames(t *testing.T) {
	s := mustServe(t, 100000) // the limits a run of this mode needs
	cfg, err := parse([]string{"--mode", "games", "--url", s.base, "--games", "60", "--actions", "130",
		"--clients", "8", "--duration", "100ms", "--pid", strconv.Itoa(os.Getpid())}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := runGames(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != 60 || rep.Players != 2 || rep.Built != 60*130 || rep.LiveTables < 60 || rep.RSSAfterKiB <= 0 || rep.Go.HeapAfterKiB <= 0 {
		t.Fatalf("report %+v", rep)
	}
	if len(rep.Errors) != 0 {
		t.Fatalf("errors %v", rep.Errors)
	}
	for _, args := range [][]string{{"--mode", "games", "--races", "3"}, {"--mode", "games", "--actions", "20001"}, {"--mode", "solo", "--games", "3"}} {
		if _, err := parse(args, io.Discard); err == nil {
			t.Fatalf("%v taken", args)
		}
	}
	cfg.pids = nil
	if _, err := runGames(context.Background(), cfg); err == nil {
		t.Fatal("games mode without --pid")
	}
}
