package load

import (
	"context"
	"io"
	"os"
	"strconv"
	"testing"
)

// TestLoadIdle opens idle sockets and reads the server's memory (the test
// process is the server).
func TestLoadIdle(t *testing.T) {
	s := mustServe(t, 0)
	cfg, err := parse([]string{"--mode", "idle", "--url", s.base, "--sockets", "20", "--duration", "100ms",
		"--pid", strconv.Itoa(os.Getpid())}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := runIdle(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sockets != 20 || rep.Players != 3 || rep.RSSBeforeKiB <= 0 || rep.RSSAfterKiB <= 0 {
		t.Fatalf("report %+v", rep)
	}
	// each socket is at least its two goroutines, and the heap and the
	// stacks were read
	if g := rep.Go; g.GoroutinesPerSocket < 2 || g.HeapBeforeKiB <= 0 || g.StackAfterKiB <= 0 {
		t.Fatalf("the runtime's share %+v", g)
	}
	if _, err := parse([]string{"--mode", "idle", "--races", "3"}, io.Discard); err == nil {
		t.Fatal("--races taken in idle mode")
	}
	cfg.pids = nil
	if _, err := runIdle(context.Background(), cfg); err == nil {
		t.Fatal("idle mode without --pid")
	}
}
