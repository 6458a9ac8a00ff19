package protocol

import (
	"testing"

	"dsol/internal/game"
)

// TestCloseCodes checks that every error code has a row of its own in the
// close code table, and that a refused upgrade answers an error status.
func TestCloseCodes(t *testing.T) {
	for _, c := range game.Codes() {
		if _, ok := closeCodes[c]; !ok {
			t.Errorf("%s has no close code", c)
		}
		if st := RefusalStatus(c); st < 400 || st > 599 {
			t.Errorf("%s: a refused upgrade answers %d", c, st)
		}
	}
	if len(closeCodes) != len(game.Codes()) {
		t.Errorf("%d close codes for %d error codes", len(closeCodes), len(game.Codes()))
	}
	if CloseSignedOut != CloseCode(game.Unauthorized) {
		t.Errorf("signed out closes with %d, unauthorized's row is %d", CloseSignedOut, CloseCode(game.Unauthorized))
	}
}
