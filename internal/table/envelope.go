package table

import (
	"bytes"
	"encoding/json"

	"dsol/internal/input"
	"dsol/internal/klondike"
)

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
	if err := input.CheckJSON(data); err != nil {
		return Command{}, Errorf(BadRequest, "%v", err)
	}
	var env envelope
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&env); err != nil {
		return Command{}, Errorf(BadRequest, "%s", input.Describe(err))
	}
	switch {
	case frame && (env.Type == nil || *env.Type != "action"):
		return Command{}, Errorf(BadRequest, "an action frame has \"type\": \"action\"")
	case !frame && env.Type != nil:
		return Command{}, Errorf(BadRequest, "unknown field \"type\"")
	}
	raw := bytes.TrimSpace(env.Action)
	if len(raw) == 0 || raw[0] != '{' {
		return Command{}, Errorf(BadRequest, "\"action\" must be an object such as {\"type\": \"draw\"}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil { // never: raw is a checked object
		return Command{}, Errorf(BadRequest, "action: %s", input.Describe(err))
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
		return Command{}, Errorf(BadRequest, "two different action ids")
	}
	a, err := klondike.DecodeAction(raw)
	if err != nil {
		return Command{}, AsError(err)
	}
	if env.Seq != nil && *env.Seq < 0 {
		return Command{}, Errorf(BadRequest, "seq cannot be negative")
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

func badClientID() *Error {
	return Errorf(BadRequest, "an action id is a string of 1 to %d printable ASCII characters", MaxClientID)
}
