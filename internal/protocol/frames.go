package protocol

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"dsol/internal/game"
	"dsol/internal/input"
)

// ClientFrame is a client's socket frame, decoded: an action (its Command, without
// the seat) or a ping. A refused frame keeps what the refusal is answered
// with: Type "action" when it was one, and the client id it carried.
type ClientFrame struct {
	Type string // "action" or "ping"; for a refused frame, "action" or ""
	ID   string // the client action id; for a refused frame, the id to reject it with
	Cmd  Command
}

// ErrNotUTF8 refuses a text frame that is not UTF-8, which RFC 6455 does not
// allow: the socket closes with CloseInvalidData instead of answering it.
var ErrNotUTF8 = game.Errorf(game.BadRequest, "a text frame must be UTF-8")

// ping is the one spelling of a ping that the clients send.
var ping = []byte(`{"type":"ping"}`)

// DecodeFrame reads a game socket's client frame, text or binary:
// {"type": "ping"} or an action frame {"type": "action", "id", "action",
// "seq"}, with the rules of the REST API's action body (DecodeCommand).
// The shapes clients send take one pass without allocating (QuickEnvelope,
// or the ping as the clients spell it); any other is checked once
// (CheckFrame) and decoded once. A refusal is a bad_request, except
// ErrNotUTF8.
func DecodeFrame(text bool, data []byte) (ClientFrame, *game.Error) {
	if text {
		if t, c, ok := QuickEnvelope(data); ok && t == "action" {
			return ClientFrame{Type: "action", ID: c.ClientID, Cmd: c}, nil
		}
		if bytes.Equal(bytes.TrimSpace(data), ping) {
			return ClientFrame{Type: "ping"}, nil
		}
	}
	if err := CheckFrame(text, data); err != nil {
		return ClientFrame{}, err
	}
	var m struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return ClientFrame{}, game.Errorf(game.BadRequest, "a frame is one JSON object such as {\"type\": \"action\", ...}")
	}
	switch m.Type {
	case "action":
		c, err := decodeChecked(data, true) // CheckFrame checked it
		if err != nil {
			return ClientFrame{Type: "action", ID: IDOf(data)}, AsError(err)
		}
		return ClientFrame{Type: "action", ID: c.ClientID, Cmd: c}, nil
	case "ping":
		return ClientFrame{Type: "ping"}, nil
	}
	return ClientFrame{ID: IDOf(data)}, game.Errorf(game.BadRequest, "unknown message type; send \"action\" or \"ping\"")
}

// CheckFrame refuses a client frame, of a game or the lobby, that is not
// JSON text passing input.CheckJSON: ErrNotUTF8 for text that is not UTF-8,
// else a bad_request.
func CheckFrame(text bool, data []byte) *game.Error {
	if !text {
		return game.Errorf(game.BadRequest, "frames are JSON text")
	}
	if !utf8.Valid(data) {
		return ErrNotUTF8
	}
	if err := input.CheckJSON(data); err != nil {
		return game.Errorf(game.BadRequest, "a frame is one JSON object: %v", err)
	}
	return nil
}

// IDOf finds the client id of a frame that could not be handled, if any,
// to reject it with.
func IDOf(data []byte) string {
	var m struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(data, &m) != nil || !ValidClientID(m.ID) {
		return ""
	}
	return m.ID
}
