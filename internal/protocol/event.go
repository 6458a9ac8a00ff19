package protocol

import (
	"encoding/json"
	"time"
)

// Event is one committed action of a game, as stored in the log and sent to
// subscribers, in seq order without gaps.
type Event struct {
	Seq      int64           `json:"seq"`
	Seat     int             `json:"seat"`
	Action   json.RawMessage `json:"action"` // canonical JSON of the resolved action
	Status   string          `json:"status"` // game status after the action
	At       time.Time       `json:"at"`
	ClientID string          `json:"-"` // never shown to other players
}

// Result answers a Command.
type Result struct {
	// Seq is the seq of the action: for a duplicate client id, the seq of the
	// earlier action, which was not applied again.
	Seq       int64
	Duplicate bool
	Event     Event // the committed event of the action
	// View is the sender's view and ViewSeq the seq it reflects: right after
	// the action, or the current state for a duplicate.
	View    View
	ViewSeq int64
}

// Update is what a subscriber receives: for every committed event its Frame
// (the event and the subscriber's view around it, shared with every
// subscriber of the same viewer), or a Notice of a change outside the action
// log — a seat's presence, or the end of a race.
type Update struct {
	Frame  *Frame
	Notice *Notice
}

// Notice is a message of a live game that is not an event of the log, ready to be
// sent as is on the WebSocket: {"type": "presence", "seat", "online",
// "claimAt", "graceSeconds"}, {"type": "over", "result", "ratings"}
// (ratings only when the race is rated), or a solo game's live check
// {"type": "check", "seq", "stillWinnable"} (check.go).
type Notice struct {
	Type         string          `json:"type"`
	Seat         int             `json:"seat,omitempty"`
	Online       *bool           `json:"online,omitempty"`
	ClaimAt      *time.Time      `json:"claimAt,omitempty"`
	GraceSeconds int             `json:"graceSeconds,omitempty"`
	Result       json.RawMessage `json:"result,omitempty"`
	Rematch      *RematchView    `json:"rematch,omitempty"`
	Ratings      []SeatRating    `json:"ratings,omitempty"`
	// Seq and StillWinnable are a check's: the seq of the view it decided,
	// and true, false or null.
	Seq           *int64          `json:"seq,omitempty"`
	StillWinnable json.RawMessage `json:"stillWinnable,omitempty"`
}
