package httpapi

import (
	"go/build"
	"strings"
	"testing"
)

// TestTransportImports keeps the transports thin: REST (this package) and
// the WebSocket sessions (package ws) reach games only through the game
// service (package table), players through the players service, and share
// the vocabulary of package game; never a store or a rules engine. Only
// the packages' own files count, not their tests.
func TestTransportImports(t *testing.T) {
	forbidden := func(imp string) bool {
		switch imp {
		case "dsol/internal/store", "dsol/internal/race", "dsol/internal/solo", "dsol/internal/klondike":
			return true
		}
		return strings.HasPrefix(imp, "dsol/internal/store/")
	}
	for _, dir := range []string{".", "../ws"} {
		p, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.GoFiles) == 0 {
			t.Fatalf("%s: no Go files", dir)
		}
		for _, imp := range p.Imports {
			if forbidden(imp) {
				t.Errorf("package %s imports %s: go through the game service, the players service or package game", p.Name, imp)
			}
		}
	}
}
