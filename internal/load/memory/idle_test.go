package memory

import (
	"context"
	"os"
	"testing"
	"time"

	"dsol/internal/load/loadtest"
)

// TestLoadIdle opens idle sockets and reads the server's memory (the test
// process is the server).
func TestLoadIdle(t *testing.T) {
	s := loadtest.MustServe(t, 0)
	cfg := Config{Base: s.Base, Sockets: 20, Duration: 100 * time.Millisecond, Setup: 30 * time.Second,
		Protocol: 2, PIDs: []int{os.Getpid()}}
	rep, err := Idle(context.Background(), cfg)
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
	cfg.PIDs = nil
	if _, err := Idle(context.Background(), cfg); err == nil {
		t.Fatal("idle mode without --pid")
	}
}
