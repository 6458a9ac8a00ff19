package protocol

import (
	"bytes"
	"strconv"
	"testing"

	"dsol/internal/game"
)

// The action envelope of each transport: REST's body of
// POST /api/v1/games/{id}/actions, which httpapi reads with
// live.DecodeCommand(body, false) and nothing else, and the WebSocket
// action frame, which the read loop reads with decodeFrame.

// restBody renders an action request: shape says whether it carries the
// top-level id (1), the id inside the action (2) and the seq (4). The id is
// put between quotes as it is, so that it may hold escapes or break the JSON.
func restBody(id string, action []byte, seq int64, shape uint8) []byte {
	b := append([]byte(`{"action":`), withID(action, id, shape&2 != 0)...)
	if shape&1 != 0 {
		b = append(append(append(b, `,"id":"`...), id...), '"')
	}
	if shape&4 != 0 {
		b = strconv.AppendInt(append(b, `,"seq":`...), seq, 10)
	}
	return append(b, '}')
}

// wsFrame renders the same as an action frame, in the order of the
func wsFrame(id string, action []byte, seq int64, shape uint8) []byte {
	b := []byte(`{"type":"action",`)
	if shape&1 != 0 {
		b = append(append(append(b, `"id":"`...), id...), `",`...)
	}
	b = append(append(b, `"action":`...), withID(action, id, shape&2 != 0)...)
	if shape&4 != 0 {
		b = strconv.AppendInt(append(b, `,"seq":`...), seq, 10)
	}
	return append(b, '}')
}

// withID puts "id": id first in an action object (when in, and action is an
// object).
func withID(action []byte, id string, in bool) []byte {
	if !in {
		return action
	}
	return splice(action, `"id":"`+id+`"`)
}

// splice puts the member m first in the object that body starts with, if it
// starts with one; else it returns body.
func splice(body []byte, m string) []byte {
	rest := bytes.TrimLeft(body, " \t\r\n")
	if len(rest) == 0 || rest[0] != '{' {
		return body
	}
	head := len(body) - len(rest) + 1
	out := append(append([]byte(nil), body[:head]...), m...)
	if after := bytes.TrimLeft(body[head:], " \t\r\n"); len(after) == 0 || after[0] != '}' {
		out = append(out, ',')
	}
	return append(out, body[head:]...)
}

// overWS decodes a frame as the read loop does; a close with 1007 (text that
// is not UTF-8) counts as a bad_request.
func overWS(data []byte) (Command, *game.Error) {
	f, err := DecodeFrame(true, data)
	if err == ErrNotUTF8 {
		return Command{}, game.Errorf(game.BadRequest, "closed with %d", CloseInvalidData)
	}
	if err == nil && f.Type != "action" {
		return Command{}, game.Errorf(game.Internal, "decoded as a %q frame", f.Type)
	}
	return Command{Action: f.Cmd.Action, ClientID: f.ID, Seq: f.Cmd.Seq}, err
}

// overREST decodes a body as POST /api/v1/games/{id}/actions does.
func overREST(data []byte) (Command, *game.Error) {
	c, err := DecodeCommand(data, false)
	return c, AsError(err)
}

func sameCommand(a, b Command) bool {
	return a.Action == b.Action && a.ClientID == b.ClientID && (a.Seq == nil) == (b.Seq == nil) &&
		(a.Seq == nil || *a.Seq == *b.Seq)
}

// checkSame fails unless a REST body and a frame decode to the same command,
// or are both refused with the same code; it returns the command.
func checkSame(t *testing.T, body, frame []byte) (Command, bool) {
	t.Helper()
	rc, rerr := overREST(body)
	wc, werr := overWS(frame)
	switch {
	case rerr != nil && werr != nil:
		if rerr.Code != werr.Code || rerr.Code != game.BadRequest {
			t.Fatalf("REST %q: %v\nWS %q: %v", body, rerr, frame, werr)
		}
		return Command{}, false
	case rerr != nil || werr != nil:
		t.Fatalf("REST %q: %+v, %v\nWS %q: %+v, %v", body, rc, rerr, frame, wc, werr)
	case !sameCommand(rc, wc):
		t.Fatalf("REST %q: %+v\nWS %q: %+v", body, rc, frame, wc)
	}
	if rc.ClientID != "" && !ValidClientID(rc.ClientID) || rc.Seq != nil && *rc.Seq < 0 {
		t.Fatalf("%q: accepted %+v", body, rc)
	}
	return rc, true
}

// FuzzActionEnvelope checks that REST and WebSocket read an action envelope
// by the same rules: (id, action, seq) rendered in each transport's envelope
// (shape: top-level id 1, id inside the action 2, seq 4), and raw, a REST
// body as it is and as a frame with "type": "action" put first, decode to the
// same command or are refused with the same code. An accepted command,
// rendered again with the canonical action, decodes to itself over both.
func FuzzActionEnvelope(f *testing.F) {
	draw := []byte(`{"type":"draw"}`)
	for _, s := range []struct {
		id     string
		action string
		seq    int64
		shape  uint8
	}{
		{"a1", `{"type":"draw"}`, 3, 7}, {"", `{"type":"draw"}`, 0, 2}, {"", `{"type":"draw"}`, 0, 1},
		{"x", `{"type":"move","from":"c3","count":2,"to":"c7"}`, 0, 1}, {"in", `{"type":"tap","from":"w"}`, 0, 2},
		{"é", `{"type":"draw"}`, 0, 1}, {"a\xff", `{"type":"draw"}`, 0, 2}, {`a\u0041`, `{"type":"undo"}`, 0, 3},
		{`a","id":"b`, `{"type":"draw"}`, 0, 1}, {`a","type":"undo`, `{"type":"draw"}`, 0, 2}, {"a", `{}`, 0, 2},
		{"s", `{"type":"draw"}`, -1, 5}, {"s", `{ }`, 0, 2}, {"s", `"draw"`, 0, 3}, {"s", `null`, 0, 4},
		{"0123456789012345678901234567890123456789012345678901234567890123", `{"type":"pass"}`, 1, 3},
		{"01234567890123456789012345678901234567890123456789012345678901234", `{"type":"pass"}`, 1, 1},
		{"d", `{"type":"draw","type":"undo"}`, 0, 1}, {"d", `{"type":"dr\xffaw"}`, 0, 0}, {"d", `{"type":"draw","id":null}`, 0, 1},
	} {
		f.Add(s.id, []byte(s.action), s.seq, []byte(nil), s.shape)
	}
	for _, s := range []string{
		`{"action":{"type":"draw"}}`, `{"action":{"type":"draw"},"seq":0}`, `{"action":{"type":"draw"},"seq":12,"id":"a1"}`,
		`{"action":{"type":"move","from":"c3","count":2,"to":"c7"},"id":"x"}`, `{"action":{"type":"tap","from":"w","id":"in"}}`,
		`{"action":{"type":"undo","id":"same"},"id":"same"}`, `{"action":{"type":"undo","id":"a"},"id":"b"}`,
		`{"action":{"type":"draw"},"id":""}`, `{"action":{"type":"draw","id":""}}`, `{"action":{"type":"draw","id":7}}`,
		`{"action":{"type":"draw"},"id":"é"}`, `{"action":{"type":"draw"},"seq":-1}`, `{"action":{"type":"draw"},"seq":1e3}`,
		`{"action":"draw"}`, `{"action":null}`, `{"action":[]}`, `{}`, ``, `null`, `{"action":{"type":"draw"}}]`,
		`{"action":{"type":"draw","id":"a","id":"b"}}`, `{"action":{"type":"draw"},"seq":9223372036854775807}`,
		`{"action":{"type":"draw","Id":"a"}}`, `{"ACTION":{"type":"draw"},"ID":"a"}`, `{"action":{"type":"draw"},"id":null,"seq":null}`,
		`{"action":{"type":"draw"},"action":{"type":"undo"}}`, `{"type":"ping"}`, ` { } `, `[]`, "{\"action\":{\"type\":\"draw\"},\"id\":\"\xff\"}",
		`{"action":{"type":"draw"},"id":"\ud800"}`, `{"action":{"type":"draw"},"seq":1}{}`, "\xef\xbb\xbf{\"action\":{\"type\":\"draw\"}}",
	} {
		f.Add("", draw, int64(0), []byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, id string, action []byte, seq int64, raw []byte, shape uint8) {
		checkSame(t, raw, splice(raw, `"type":"action"`))
		c, ok := checkSame(t, restBody(id, action, seq, shape), wsFrame(id, action, seq, shape))
		if !ok {
			return
		}
		shape = 4
		if c.Seq == nil {
			shape = 0
		}
		if c.ClientID != "" {
			shape |= 1
		}
		canon := c.Action.AppendJSON(nil)
		var s int64
		if c.Seq != nil {
			s = *c.Seq
		}
		again, ok := checkSame(t, restBody(c.ClientID, canon, s, shape), wsFrame(c.ClientID, canon, s, shape))
		if !ok || !sameCommand(again, c) {
			t.Fatalf("%+v → %s → %+v", c, restBody(c.ClientID, canon, s, shape), again)
		}
	})
}
