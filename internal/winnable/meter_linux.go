package winnable

import (
	"runtime"
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's use.
const rusageThread = 1

type rusageMeter struct{}

// ProcessMeter returns the meter of this process (getrusage), or nil where
// the system gives no CPU time per thread. Its Thread is only meaningful on
// a goroutine locked to its thread.
func ProcessMeter() Meter { return rusageMeter{} }

func (rusageMeter) Process() time.Duration { return rusage(syscall.RUSAGE_SELF) }

func (rusageMeter) Thread() time.Duration { return rusage(rusageThread) }

func rusage(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// searchThread locks the calling goroutine to its thread for good, so that
// the thread's CPU time is the search's, and lowers the thread's priority
// (nice 19: Linux keeps a niceness per thread), so that the system runs
// the server's other threads and other processes first between two
// measurements. The thread is never unlocked, so it ends with the
// goroutine instead of going back to the runtime with its priority.
func searchThread() {
	runtime.LockOSThread()
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}
