package protocol

import (
	"dsol/internal/klondike"
	"encoding/json"
	"testing"
)

// FuzzValidClientID checks that an accepted client action id is 1 to
// MaxClientID printable ASCII characters, and that JSON carries it unchanged.
func FuzzValidClientID(f *testing.F) {
	for _, s := range []string{"a", "abc-123", "", " ", "x y", "\x7f", "é", "\x00", "id\n",
		"0123456789012345678901234567890123456789012345678901234567890123",
		"01234567890123456789012345678901234567890123456789012345678901234"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !ValidClientID(s) {
			return
		}
		if len(s) < 1 || len(s) > MaxClientID {
			t.Fatalf("ValidClientID(%q): length %d", s, len(s))
		}
		for i := 0; i < len(s); i++ {
			if s[i] < 0x20 || s[i] > 0x7e {
				t.Fatalf("ValidClientID(%q): byte %#x is not printable ASCII", s, s[i])
			}
		}
		b, _ := json.Marshal(s)
		var again string
		if err := json.Unmarshal(b, &again); err != nil || again != s {
			t.Fatalf("%q → %s → %q, %v", s, b, again, err)
		}
	})
}

// FuzzQuickEnvelope holds QuickEnvelope to the rules of DecodeCommand: what
// it reads, the full decoder reads the same, as a frame when its type is
// "action" and as a REST body when it has none.
// FuzzDecodeAction: DecodeAction reads what klondike.DecodeAction reads,
// the same, and refuses what it refuses.
func FuzzDecodeAction(f *testing.F) {
	for _, s := range []string{
		`{"type":"draw"}`, `{"type":"move","from":"c3","to":"f","count":2}`, ` { "type" : "tap" , "from" : "w" } `,
		`{"type":"dtap","from":"c1","count":13}`, `{"type":"draw","from":""}`, `{"type":"move","from":"c1","to":"c2","count":0}`,
		`{}`, `{"type":"draw"}x`, `{"type":"dra\u0077"}`, `{"type":"draw","type":"draw"}`, `{"type":"move","from":"c1","to":"c2","count":1.0}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := DecodeAction(data)
		want, werr := klondike.DecodeAction(data)
		if (err == nil) != (werr == nil) || got != want {
			t.Fatalf("%s: %+v, %v; klondike.DecodeAction %+v, %v", data, got, err, want, werr)
		}
	})
}

func FuzzQuickEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"type":"action","id":"a1","action":{"type":"draw"}}`,
		`{"type":"action","id":"a1","seq":12,"action":{"type":"move","from":"c3","to":"f","count":2}}`,
		`{"action":{"type":"tap","from":"w"},"id":null,"seq":null}`,
		` { "action" : { "type" : "dtap" , "from" : "c1" , "count" : 13 } } `,
		`{"type":"ping"}`, `{"type":"action","action":{"type":"draw"},"id":""}`,
		`{"action":{"type":"draw","from":""}}`, `{"action":{"type":"draw"},"seq":01}`,
		`{"action":{"type":"draw"},"seq":-1}`, `{"action":{"type":"draw"},"seq":1e3}`,
		`{"action":{"type":"draw"},"action":{"type":"draw"}}`, `{"action":{"type":"move","from":"c1","to":"c2","count":0}}`,
		`{"type":"","action":{"type":"draw"}}`, `{"action":{}}`, `{"action":{"type":"draw"}}x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		typ, c, ok := QuickEnvelope(data)
		if !ok {
			return
		}
		for _, frame := range []bool{true, false} {
			if (typ == "action") != frame || (!frame && typ != "") {
				continue
			}
			want, err := decodeCommand(data, frame)
			if err != nil {
				t.Fatalf("%s: quick read %+v, the decoder refuses it: %v", data, c, err)
			}
			if want.Action != c.Action || want.ClientID != c.ClientID || (want.Seq == nil) != (c.Seq == nil) || (c.Seq != nil && *want.Seq != *c.Seq) {
				t.Fatalf("%s: quick read %+v, the decoder %+v", data, c, want)
			}
		}
	})
}
