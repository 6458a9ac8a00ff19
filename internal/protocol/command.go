// Package protocol is dsol's wire: what a client sends — action envelopes
// over REST and the socket, socket frames — and what the server sends —
// views, their deltas, events, notices, answers — with the error codes'
// close codes and the one table from any error to the error a client is
// told. It decodes every client frame in one place, once, for every shape.
// The action itself (klondike.Action) keeps its text form in its own
// package, as a rules library keeps its notation.
package protocol

import (
	"bytes"
	"encoding/json"

	"dsol/internal/game"
	"dsol/internal/input"
	"dsol/internal/klondike"
)

// Command is one action a client sent, decoded: the seat comes from who
// sent it, not from the wire.
type Command struct {
	Seat     int             // the sender's seat: 1 or 2 (solo: 1)
	Action   klondike.Action // the decoded action
	ClientID string          // client action id ("" for none): applies once per game and seat
	Seq      *int64          // the seq the client last saw; a different current seq is a conflict
}

// envelope is the wire form of an action request.
type envelope struct {
	Type   *string         `json:"type"` // WebSocket frames only
	ID     *string         `json:"id"`
	Action json.RawMessage `json:"action"`
	Seq    *int64          `json:"seq"`
}

// DecodeCommand reads a client's action envelope with the one set of rules
// of REST and WebSocket: the body of POST /api/v1/games/{id}/actions,
// {"action": {…}, "id"?, "seq"?}, or, with frame, a WebSocket action frame,
// which carries "type": "action" besides. The JSON must pass
// input.CheckJSON, and no other key may come. The client id may sit beside
// the action, inside it, or both when the two are the same; null is no id,
// and any other id must be a ValidClientID. A seq, unless null, is 0 or more.
// The Command has no Seat; an error is always an *Error with code
// bad_request.
func DecodeCommand(data []byte, frame bool) (Command, error) {
	if typ, c, ok := QuickEnvelope(data); ok && (typ == "action") == frame && (frame || typ == "") {
		return c, nil
	}
	return decodeCommand(data, frame)
}

// decodeCommand is DecodeCommand for any input: the rules themselves, which
// QuickEnvelope follows for the shape it reads.
func decodeCommand(data []byte, frame bool) (Command, error) {
	if err := input.CheckJSON(data); err != nil {
		return Command{}, game.Errorf(game.BadRequest, "%v", err)
	}
	return decodeChecked(data, frame)
}

// decodeChecked is decodeCommand for input that passed input.CheckJSON.
func decodeChecked(data []byte, frame bool) (Command, error) {
	var env envelope
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&env); err != nil {
		return Command{}, game.Errorf(game.BadRequest, "%s", input.Describe(err))
	}
	switch {
	case frame && (env.Type == nil || *env.Type != "action"):
		return Command{}, game.Errorf(game.BadRequest, "an action frame has \"type\": \"action\"")
	case !frame && env.Type != nil:
		return Command{}, game.Errorf(game.BadRequest, "unknown field \"type\"")
	}
	raw := bytes.TrimSpace(env.Action)
	if len(raw) == 0 || raw[0] != '{' {
		return Command{}, game.Errorf(game.BadRequest, "\"action\" must be an object such as {\"type\": \"draw\"}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil { // never: raw is a checked object
		return Command{}, game.Errorf(game.BadRequest, "action: %s", input.Describe(err))
	}
	var inner *string
	if v, ok := fields["id"]; ok {
		if json.Unmarshal(v, &inner) != nil {
			return Command{}, badClientID()
		}
		delete(fields, "id")
		raw, _ = json.Marshal(fields)
	}
	for _, id := range []*string{env.ID, inner} {
		if id != nil && !ValidClientID(*id) {
			return Command{}, badClientID()
		}
	}
	if env.ID != nil && inner != nil && *env.ID != *inner {
		return Command{}, game.Errorf(game.BadRequest, "two different action ids")
	}
	a, err := klondike.DecodeAction(raw)
	if err != nil {
		return Command{}, AsError(err)
	}
	if a.Type == klondike.TimeUp {
		return Command{}, game.Errorf(game.BadRequest, "unknown action type %s", input.Quote(a.Type.String()))
	}
	if env.Seq != nil && *env.Seq < 0 {
		return Command{}, game.Errorf(game.BadRequest, "seq cannot be negative")
	}
	c := Command{Action: a, Seq: env.Seq}
	switch {
	case env.ID != nil:
		c.ClientID = *env.ID
	case inner != nil:
		c.ClientID = *inner
	}
	return c, nil
}

func badClientID() *game.Error {
	return game.Errorf(game.BadRequest, "an action id is a string of 1 to %d printable ASCII characters", MaxClientID)
}

// QuickEnvelope reads, in one pass and without allocating, the shape nearly
// every envelope has: one object whose keys are among "type", "id", "seq"
// and "action", each once, with plain strings (printable ASCII, no escapes),
// a seq that is null or a small non-negative integer, an id that is null or
// a string, and an action object whose keys are among "type", "from", "to"
// and "count", each once. For such input it gives what DecodeCommand would
// (typ is the "type" member, "" when absent) — FuzzQuickEnvelope holds the
// two to that — and ok; anything else gives ok false, and the caller uses
// DecodeCommand, which names what is wrong.
func QuickEnvelope(data []byte) (typ string, c Command, ok bool) {
	q := quick{b: data}
	var seen [4]bool
	var act quickAction
	q.space()
	if !q.byte('{') {
		return "", Command{}, false
	}
	q.space()
	if !q.byte('}') {
		for {
			key, ok := q.str()
			if !ok || !q.colon() {
				return "", Command{}, false
			}
			i := -1
			switch key {
			case "type":
				i = 0
				typ, ok = q.str()
				ok = ok && typ != "" // "" means absent to the caller
			case "id":
				i = 1
				if !q.null() {
					c.ClientID, ok = q.str()
					ok = ok && ValidClientID(c.ClientID)
				}
			case "seq":
				i = 2
				if !q.null() {
					var n int64
					n, ok = q.uint()
					c.Seq = &n
				}
			case "action":
				i = 3
				act, ok = q.action()
			}
			if i < 0 || !ok || seen[i] {
				return "", Command{}, false
			}
			seen[i] = true
			q.space()
			if q.byte('}') {
				break
			}
			if !q.byte(',') {
				return "", Command{}, false
			}
			q.space()
		}
	}
	q.space()
	if q.i != len(q.b) || !seen[3] {
		return "", Command{}, false
	}
	a, err := klondike.ActionOf(act.typ, act.from, act.to, act.count)
	if err != nil || a.Type == klondike.TimeUp { // the server's own: DecodeCommand refuses it
		return "", Command{}, false
	}
	c.Action = a
	return typ, c, true
}

// DecodeAction reads an action's JSON: in one pass without allocating
// when it has the shape QuickEnvelope reads (what the server writes to the
// action log always has), else with klondike.DecodeAction, strictly. A
// table replaying its log reads every action through it.
func DecodeAction(data []byte) (klondike.Action, error) {
	q := quick{b: data}
	q.space()
	if act, ok := q.action(); ok {
		q.space()
		if q.i == len(q.b) {
			if a, err := klondike.ActionOf(act.typ, act.from, act.to, act.count); err == nil {
				return a, nil
			}
		}
	}
	return klondike.DecodeAction(data)
}

// quick is the cursor of QuickEnvelope.
type quick struct {
	b []byte
	i int
}

type quickAction struct {
	typ, from, to string
	count         *int
	n             int // the count's storage
}

func (q *quick) space() {
	for q.i < len(q.b) && (q.b[q.i] == ' ' || q.b[q.i] == '\t' || q.b[q.i] == '\n' || q.b[q.i] == '\r') {
		q.i++
	}
}

func (q *quick) byte(c byte) bool {
	if q.i < len(q.b) && q.b[q.i] == c {
		q.i++
		return true
	}
	return false
}

func (q *quick) colon() bool {
	q.space()
	ok := q.byte(':')
	q.space()
	return ok
}

func (q *quick) null() bool {
	if len(q.b)-q.i >= 4 && string(q.b[q.i:q.i+4]) == "null" {
		q.i += 4
		return true
	}
	return false
}

// str reads a plain string: printable ASCII without escapes.
func (q *quick) str() (string, bool) {
	if !q.byte('"') {
		return "", false
	}
	start := q.i
	for q.i < len(q.b) {
		c := q.b[q.i]
		if c == '"' {
			s := q.b[start:q.i]
			q.i++
			return internString(s), true
		}
		if c < 0x20 || c > 0x7e || c == '\\' {
			return "", false
		}
		q.i++
	}
	return "", false
}

// uint reads a non-negative integer of up to 15 digits, without a leading
// zero unless it is 0.
func (q *quick) uint() (int64, bool) {
	start := q.i
	var n int64
	for q.i < len(q.b) && q.b[q.i] >= '0' && q.b[q.i] <= '9' && q.i-start < 15 {
		n = n*10 + int64(q.b[q.i]-'0')
		q.i++
	}
	d := q.i - start
	if d == 0 || (d > 1 && q.b[start] == '0') || (q.i < len(q.b) && (q.b[q.i] == '.' || q.b[q.i] == 'e' || q.b[q.i] == 'E' || (q.b[q.i] >= '0' && q.b[q.i] <= '9'))) {
		return 0, false
	}
	return n, true
}

// action reads the action object.
func (q *quick) action() (quickAction, bool) {
	var a quickAction
	var seen [4]bool
	if !q.byte('{') {
		return a, false
	}
	q.space()
	if q.byte('}') {
		return a, true
	}
	for {
		key, ok := q.str()
		if !ok || !q.colon() {
			return a, false
		}
		i := -1
		switch key {
		case "type":
			i = 0
			a.typ, ok = q.str()
		case "from":
			i = 1
			a.from, ok = q.str()
		case "to":
			i = 2
			a.to, ok = q.str()
		case "count":
			i = 3
			var n int64
			n, ok = q.uint()
			a.n, a.count = int(n), &a.n
		}
		if i < 0 || !ok || seen[i] {
			return a, false
		}
		seen[i] = true
		q.space()
		if q.byte('}') {
			return a, true
		}
		if !q.byte(',') {
			return a, false
		}
		q.space()
	}
}

// internString returns the strings of the wire without allocating when
// they are the ones actions use; others are copied.
func internString(b []byte) string {
	switch string(b) {
	case "action":
		return "action"
	case "ping":
		return "ping"
	case "draw":
		return "draw"
	case "recycle":
		return "recycle"
	case "tap":
		return "tap"
	case "dtap":
		return "dtap"
	case "move":
		return "move"
	case "undo":
		return "undo"
	}
	return string(b)
}
