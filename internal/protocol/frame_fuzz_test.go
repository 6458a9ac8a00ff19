package protocol

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/coder/websocket"

	"dsol/internal/game"
)

// FuzzClientFrame checks the client frame decoder: it never panics; an
// unknown or malformed frame is refused with a bad_request (which the read
// loop answers with a reject; only a text frame that is not UTF-8 closes the
// socket) whose reject id, if any, is a valid client id; an accepted frame is
// a ping or an action whose id, action and seq re-encode to a frame that
// decodes to the same.
func FuzzClientFrame(f *testing.F) {
	for _, s := range []string{
		`{"type":"ping"}`, `{"type":"action","id":"a1","action":{"type":"draw"}}`,
		`{"type":"action","action":{"type":"move","from":"c3","count":2,"to":"c7"},"seq":4}`,
		`{"type":"action","action":{"type":"tap","from":"w","id":"in"}}`, `{"type":"action","id":"x","action":{"type":"undo","id":"y"}}`,
		`{"type":"action","id":null,"action":{"type":"draw"}}`, `{"type":"action","id":7,"action":{"type":"draw"}}`,
		`{"type":"action","id":"","action":{"type":"draw"}}`, `{"type":"action","action":{"type":"draw","id":""}}`,
		`{"type":"action","action":{"type":"draw"},"seq":-1}`, `{"type":"action","action":"draw"}`, `{"type":"action"}`,
		`{"type":"action","action":{"type":"draw"}}]`, `{"type":"action","action":{"type":"fly"},"id":"f"}`,
		`{"type":"hello","id":"h1"}`, `{"type":"subscribe"}`, `{}`, `null`, `[]`, ``, `"ping"`, "\xff", `{"TYPE":"ping"}`,
		`{"type":"ping","extra":[1,2,3]}`, `{"type":"action","seq":"1","action":{"type":"draw"}}`,
		`{"type":"ping","type":"ping"}`, `{"type":"action","id":"a","action":{"type":"draw","type":"undo"}}`,
		"{\"type\":\"action\",\"id\":\"a\xff\",\"action\":{\"type\":\"draw\"}}",
	} {
		f.Add([]byte(s), true)
	}
	f.Add([]byte(`{"type":"ping"}`), false)
	f.Fuzz(func(t *testing.T, data []byte, text bool) {
		typ := websocket.MessageText
		if !text {
			typ = websocket.MessageBinary
		}
		fr, err := DecodeFrame(typ == websocket.MessageText, data)
		if err != nil {
			if err.Code != game.BadRequest || err.Msg == "" {
				t.Fatalf("%q: refused with %+v, want a bad_request", data, err)
			}
			if (err == ErrNotUTF8) != (text && !utf8.Valid(data)) {
				t.Fatalf("%q (text %v): refused with %+v", data, text, err)
			}
			if fr.ID != "" && !ValidClientID(fr.ID) {
				t.Fatalf("%q: rejected with the id %q", data, fr.ID)
			}
			if fr.Type != "" && fr.Type != "action" {
				t.Fatalf("%q: refused frame %+v", data, fr)
			}
			return
		}
		if !text || !json.Valid(data) {
			t.Fatalf("%q (text %v): accepted %+v", data, text, fr)
		}
		switch fr.Type {
		case "ping":
			if fr.ID != "" || fr.Cmd != (Command{}) {
				t.Fatalf("%q: ping %+v", data, fr)
			}
			return
		case "action":
		default:
			t.Fatalf("%q: accepted a frame of type %q", data, fr.Type)
		}
		if fr.ID != "" && !ValidClientID(fr.ID) || fr.Cmd.Seq != nil && *fr.Cmd.Seq < 0 {
			t.Fatalf("%q: accepted %+v", data, fr)
		}
		m := map[string]any{"type": "action", "action": json.RawMessage(fr.Cmd.Action.AppendJSON(nil))}
		if fr.ID != "" {
			m["id"] = fr.ID
		}
		if fr.Cmd.Seq != nil {
			m["seq"] = *fr.Cmd.Seq
		}
		enc, _ := json.Marshal(m)
		again, err := DecodeFrame(true, enc)
		if err != nil || again.Type != fr.Type || again.ID != fr.ID || again.Cmd.Action != fr.Cmd.Action ||
			(again.Cmd.Seq == nil) != (fr.Cmd.Seq == nil) || fr.Cmd.Seq != nil && *again.Cmd.Seq != *fr.Cmd.Seq {
			t.Fatalf("%q → %+v → %s → %+v, %v", data, fr, enc, again, err)
		}
	})
}
