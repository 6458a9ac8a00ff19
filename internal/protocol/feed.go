package protocol

import "context"

// MaxResume is the most events a feed's start replays (Start.Missed): a
// subscriber further behind starts from the state alone (Resumed false).
const MaxResume = 500

// Start is the state a feed started with: Seq and View; Missed, when
// Resumed, the events after the seq the subscriber asked to resume from
// (replaying them on the state at that seq gives the state at Seq); Check,
// the live check's answer at Seq as a check message when it came before
// the feed (it is then not delivered again).
type Start struct {
	Seq     int64
	View    View
	Missed  []Event
	Resumed bool
	Check   *Notice
}

// Feed is a subscriber's live feed of one game: every event after the
// start's Seq, in seq order without gaps, and the notices, taken in
// bursts without blocking. It is bounded: a subscriber that does not take
// its updates is dropped (Err is then ErrSlow), never slowing the game.
type Feed interface {
	// Start is the state the feed started with, until ReleaseStart lets go
	// of it (nil after): a feed lives as long as its socket, and an idle
	// one then holds no view of its own.
	Start() *Start
	ReleaseStart()
	// Take appends the updates waiting to dst without blocking; open is
	// false once the feed has ended and dst holds its last updates.
	Take(dst []Update) (_ []Update, open bool)
	// Pending reports whether updates wait to be taken.
	Pending() bool
	// OnReady has the game call f, which must not block, whenever it queues
	// an update or ends the feed.
	OnReady(f func())
	// Err is why the game ended the feed (ErrSlow, ErrStopped, ErrMoved,
	// ErrReloaded), or nil.
	Err() error
	// Close ends the feed.
	Close()
	// Viewer is the seat the feed follows the game as (0: a spectator), and
	// Kind the game's kind ("solo", "race").
	Viewer() int
	Kind() string
	// Submit hands a command to the game the feed follows, without waiting:
	// answer is called once, in the order of submission, after the
	// command's event went out on the feeds. ErrStopped: the game's table
	// stopped before taking it (nothing applied).
	Submit(ctx context.Context, cmd Command, answer func(Result, error)) error
}
