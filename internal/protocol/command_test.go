package protocol

import (
	"strings"
	"testing"

	"dsol/internal/game"
	"dsol/internal/klondike"
)

func TestDecodeCommand(t *testing.T) {
	draw := klondike.Simple(klondike.Draw)
	seq := func(n int64) *int64 { return &n }
	good := []struct {
		body string
		want Command
	}{
		{`{"action":{"type":"draw"}}`, Command{Action: draw}},
		{`{"action":{"type":"draw"},"id":"a","seq":0}`, Command{Action: draw, ClientID: "a", Seq: seq(0)}},
		{`{"action":{"type":"draw","id":"a"}}`, Command{Action: draw, ClientID: "a"}},
		{`{"id":"a","action":{"id":"a","type":"draw"},"seq":7}`, Command{Action: draw, ClientID: "a", Seq: seq(7)}},
		{`{"action":{"type":"draw","id":null},"id":null,"seq":null}`, Command{Action: draw}},
		{`{"action":{"type":"draw"},"id":"\u0041"}`, Command{Action: draw, ClientID: "A"}},
	}
	for _, tc := range good {
		for _, frame := range []bool{false, true} {
			body := tc.body
			if frame {
				body = framed(body)
			}
			c, err := DecodeCommand([]byte(body), frame)
			if err != nil || c.Action != tc.want.Action || c.ClientID != tc.want.ClientID ||
				(c.Seq == nil) != (tc.want.Seq == nil) || c.Seq != nil && *c.Seq != *tc.want.Seq {
				t.Errorf("DecodeCommand(%s, %v) = %+v, %v; want %+v", body, frame, c, err, tc.want)
			}
		}
	}
	bad := []string{
		`{"action":{"type":"draw","id":""}}`, `{"action":{"type":"draw"},"id":""}`, `{"action":{"type":"draw","id":7}}`,
		`{"action":{"type":"draw"},"id":"é"}`, `{"action":{"type":"draw","id":"a"},"id":"b"}`, `{"action":{"type":"draw"},"seq":-1}`,
		`{"action":{"type":"draw"},"seq":1.5}`, `{"action":"draw"}`, `{"action":null}`, `{}`, `null`, `[]`, ``,
		`{"action":{"type":"draw"},"x":1}`, `{"action":{"type":"draw"}}]`, `{"action":{"type":"draw"},"id":"a","id":"b"}`,
		`{"action":{"type":"draw","id":"a","id":"a"}}`, `{"action":{"type":"draw","type":"undo"}}`, "{\"action\":{\"type\":\"draw\"},\"id\":\"a\xff\"}",
		`{"action":{"type":"draw"},"id":"\ud800"}`, `{"action":{"type":"fly"}}`, `{"action":{"type":"draw"},"seq":0,"seq":1}`,
		`{"action":{"type":"time"}}`, `{"action":{"type":"forfeit"}}`, // the server's own
	}
	for _, body := range bad {
		for _, frame := range []bool{false, true} {
			if frame {
				body = framed(body)
			}
			_, err := DecodeCommand([]byte(body), frame)
			if e := AsError(err); e == nil || e.Code != game.BadRequest {
				t.Errorf("DecodeCommand(%s, %v) = %v, want a bad_request", body, frame, err)
			}
		}
	}
	for _, tc := range []struct {
		body  string
		frame bool
	}{{`{"type":"action","action":{"type":"draw"}}`, false}, {`{"action":{"type":"draw"}}`, true}, {`{"type":"ping","action":{"type":"draw"}}`, true}} {
		if _, err := DecodeCommand([]byte(tc.body), tc.frame); AsError(err) == nil || AsError(err).Code != game.BadRequest {
			t.Errorf("DecodeCommand(%s, %v) = %v, want a bad_request", tc.body, tc.frame, err)
		}
	}
}

// framed puts "type": "action" first in a body that is an object.
func framed(body string) string {
	switch {
	case strings.HasPrefix(body, "{}"):
		return `{"type":"action"}` + body[2:]
	case strings.HasPrefix(body, "{"):
		return `{"type":"action",` + body[1:]
	}
	return body
}
