//go:build !linux

package winnable

import "runtime"

// ProcessMeter returns nil: only Linux gives the CPU time of one thread,
// which the search needs to tell its own use from the rest of the process.
func ProcessMeter() Meter { return nil }

// searchThread locks the calling goroutine to its thread for good (see the
// Linux version).
func searchThread() { runtime.LockOSThread() }
