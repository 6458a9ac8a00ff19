package ws

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/coder/websocket"

	"dsol/internal/game"
	"dsol/internal/table"
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
		fr, err := decodeFrame(typ, data)
		if err != nil {
			if err.Code != game.BadRequest || err.Msg == "" {
				t.Fatalf("%q: refused with %+v, want a bad_request", data, err)
			}
			if (err == errNotUTF8) != (text && !utf8.Valid(data)) {
				t.Fatalf("%q (text %v): refused with %+v", data, text, err)
			}
			if fr.id != "" && !table.ValidClientID(fr.id) {
				t.Fatalf("%q: rejected with the id %q", data, fr.id)
			}
			if fr.typ != "" && fr.typ != "action" {
				t.Fatalf("%q: refused frame %+v", data, fr)
			}
			return
		}
		if !text || !json.Valid(data) {
			t.Fatalf("%q (text %v): accepted %+v", data, text, fr)
		}
		switch fr.typ {
		case "ping":
			if fr != (frame{typ: "ping"}) {
				t.Fatalf("%q: ping %+v", data, fr)
			}
			return
		case "action":
		default:
			t.Fatalf("%q: accepted a frame of type %q", data, fr.typ)
		}
		if fr.id != "" && !table.ValidClientID(fr.id) || fr.cmd.Seq != nil && *fr.cmd.Seq < 0 {
			t.Fatalf("%q: accepted %+v", data, fr)
		}
		m := map[string]any{"type": "action", "action": json.RawMessage(fr.cmd.Action.AppendJSON(nil))}
		if fr.id != "" {
			m["id"] = fr.id
		}
		if fr.cmd.Seq != nil {
			m["seq"] = *fr.cmd.Seq
		}
		enc, _ := json.Marshal(m)
		again, err := decodeFrame(websocket.MessageText, enc)
		if err != nil || again.typ != fr.typ || again.id != fr.id || again.cmd.Action != fr.cmd.Action ||
			(again.cmd.Seq == nil) != (fr.cmd.Seq == nil) || fr.cmd.Seq != nil && *again.cmd.Seq != *fr.cmd.Seq {
			t.Fatalf("%q → %+v → %s → %+v, %v", data, fr, enc, again, err)
		}
	})
}
