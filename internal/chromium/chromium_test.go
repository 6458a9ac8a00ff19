package chromium

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"dsol/internal/testenv"
)

// TestStart starts Chromium and reads what its flags set: a headless
// browser with a 1440×900 window and its profile in the folder given; stop
// ends it.
func TestStart(t *testing.T) {
	path := testenv.Chromium(t)
	dir := t.TempDir()
	ctx, stop, err := Start(path, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	type window struct {
		Width, Height int
		Agent         string
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[window](`({width: window.outerWidth, height: window.outerHeight, agent: navigator.userAgent})`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Width != 1440 || got.Height != 900 || !strings.Contains(got.Agent, "Headless") {
		t.Errorf("window %d×%d, user agent %q: want 1440×900, headless", got.Width, got.Height, got.Agent)
	}
	if _, err := os.Stat(filepath.Join(dir, "Default")); err != nil {
		t.Errorf("the profile is not in %s: %v", dir, err)
	}
	stop()
	if ctx.Err() == nil {
		t.Error("the browser's context is still live after stop")
	}
}

// TestStartMissing: a binary that is not there is an error that names it.
func TestStartMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no-chromium")
	ctx, stop, err := Start(path, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), path) || ctx != nil || stop != nil {
		t.Fatalf("Start(%s) = %v, %v", path, ctx, err)
	}
}
