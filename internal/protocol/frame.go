package protocol

import (
	"encoding/json"
	"strconv"
	"sync"
	"time"
)

// Frame is one committed event as one viewer receives it. The live game
// builds it once per viewer and event; the socket frames of both protocol versions
// are encoded from it at most once, on first use, however many connections
// the viewer has, and then shared by all of them.
type Frame struct {
	Event Event
	View  View // the viewer's view after the event
	Prev  View // the viewer's view before it; nil when not known

	// Viewer is whose frame it is: a seat, or 0 for a spectator.
	Viewer int
	// Like is another viewer's frame of the same event, also with its view
	// before, whose delta is this one's: a race's delta is the same for
	// every viewer (RaceView.AppendDelta), so it is built once.
	Like *Frame

	fullOnce, deltaOnce sync.Once
	full, delta         []byte
}

// Full is the event frame of protocol 1: the whole view after the event,
// {"type": "event", "seq", "seat", "action", "status", "at", "game"}.
func (f *Frame) Full() []byte {
	f.fullOnce.Do(func() {
		b := f.head(make([]byte, 0, 1536))
		b = append(b, `,"status":`...)
		b = strconv.AppendQuote(b, f.Event.Status)
		b = append(b, `,"game":`...)
		b = appendJSON(b, f.View)
		f.full = append(b, '}')
	})
	return f.full
}

// Delta is the event frame of protocol 2: what changed,
// {"type": "event", "seq", "seat", "action", "at", "d"}, or the whole view
// as "game" when the view before the event is not known.
func (f *Frame) Delta() []byte {
	if f.Like != nil {
		return f.Like.Delta()
	}
	f.deltaOnce.Do(func() {
		b := f.head(make([]byte, 0, 192))
		if f.Prev == nil {
			b = append(b, `,"game":`...)
			b = appendJSON(b, f.View)
		} else {
			b = append(b, `,"d":`...)
			b = f.View.AppendDelta(b, f.Prev)
		}
		f.delta = append(b, '}')
	})
	return f.delta
}

// head appends the members both versions share, without the closing brace.
func (f *Frame) head(b []byte) []byte {
	ev := &f.Event
	b = append(b, `{"type":"event","seq":`...)
	b = strconv.AppendInt(b, ev.Seq, 10)
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(ev.Seat), 10)
	b = append(b, `,"action":`...)
	b = append(b, ev.Action...)
	b = append(b, `,"at":"`...)
	b = ev.At.UTC().AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

// appendJSON appends the JSON of a value the server built (a view, a player,
// a result): such values always encode.
func appendJSON(b []byte, v any) []byte {
	j, err := json.Marshal(v)
	if err != nil {
		panic("protocol: a view does not encode: " + err.Error())
	}
	return append(b, j...)
}
