// Package chromium starts the headless Chromium that the browser tests
// (internal/e2e) and the page-load measurement (cmd/pageload) drive, with
// the same flags for both.
package chromium

import (
	"context"
	"fmt"

	"github.com/chromedp/chromedp"
)

// Start starts the Chromium binary at path, headless, with its profile in
// dir and a 1440×900 window: no sandbox, no GPU, no first-run pages, no
// QUIC, and none of the browser's own traffic (background networking,
// component updates, sync). It returns the browser's context, in which
// chromedp runs, and stop, which ends the browser; after an error the
// browser is already stopped.
func Start(path, dir string) (context.Context, func(), error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.UserDataDir(dir),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1440, 900),
	)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	stop := func() { bcancel(); acancel() }
	if err := chromedp.Do(bctx); err != nil {
		stop()
		return nil, nil, fmt.Errorf("chromium: start %s: %w", path, err)
	}
	return bctx, stop, nil
}
