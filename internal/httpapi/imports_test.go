package httpapi

import (
	"go/build"
	"strings"
	"testing"
)

// TestTransportImports keeps the transports thin: REST (this package) and
// the WebSocket sessions (package ws) reach games only through the game
// service (package service) and the wire's types (package protocol),
// players through the players service, the lobby through its hub, and
// share the vocabulary of package game and the metrics; never the live
// games (package live), a store, an engine or the rules engines. Only the
// packages' own files count, not their tests.
func TestTransportImports(t *testing.T) {
	allowed := map[string]string{
		"dsol/internal/service":  "the game service",
		"dsol/internal/protocol": "the wire",
		"dsol/internal/players":  "the players service",
		"dsol/internal/lobby":    "the lobby",
		"dsol/internal/game":     "the vocabulary",
		"dsol/internal/metrics":  "the metrics",
		"dsol/internal/input":    "the rules of client input, for the REST bodies",
		"dsol/internal/cards":    "game codes, as a request names a deal",
		"dsol/internal/static":   "the web client's files",
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
			if !strings.HasPrefix(imp, "dsol/") {
				continue
			}
			if _, ok := allowed[imp]; !ok {
				t.Errorf("package %s imports %s: go through the game service, the protocol, the players service or package game", p.Name, imp)
			}
		}
	}
}
