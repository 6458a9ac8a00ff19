package protocol

import (
	"strings"
	"testing"

	"dsol/internal/cards"
	"dsol/internal/game"
)

// TestBadCodeQuotesLittle checks that a bad game code is quoted to 64 bytes
// at most, in the error of package cards and in the client's message.
func TestBadCodeQuotesLittle(t *testing.T) {
	long := strings.Repeat("Z", 100<<10)
	_, err := cards.ParseCode(long)
	if err == nil {
		t.Fatal("a 100 KiB code parsed")
	}
	for _, msg := range []string{err.Error(), AsError(err).Msg} {
		if len(msg) > 200 || !strings.Contains(msg, `"`+long[:64]+`"…`) || strings.Contains(msg, long[:65]) {
			t.Errorf("message of %d bytes: %.300s", len(msg), msg)
		}
	}
	if AsError(err).Code != game.BadCode {
		t.Errorf("code %s", AsError(err).Code)
	}
}
