package load

import (
	"bytes"
	"encoding/json"
	"testing"

	"dsol/internal/load/client"
)

// TestSplitArray checks the split of a protocol 2 frame against
// json.Unmarshal, and that what it does not follow is left to it.
func TestSplitArray(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{`[]`, true},
		{` [ ] `, true},
		{`[{"type":"ack","id":"R1","seq":3}]`, true},
		{`[{"type":"ack","id":"R1","seq":3},{"type":"event","seq":3,"d":{"s":[{"w":["7H"]}]}}]`, true},
		{"[ {\"a\":\"}\\\"{\"} ,\n{\"b\":[{}]}\t]", true},
		{`[{"a":"\\"},{"b":1}]`, true},
		{`[1,{"a":1}]`, false},
		{`[{"a":1}`, false},
		{`[{"a":1},]`, false},
		{`[{"a":1}] x`, false},
		{`[{"a":"}]`, false},
		{`{"a":1}`, false},
	} {
		got, ok := splitArray([]byte(tc.in), nil)
		if ok != tc.ok {
			t.Errorf("%q: ok %v, want %v", tc.in, ok, tc.ok)
			continue
		}
		if ok {
			checkSplit(t, []byte(tc.in), got)
		}
	}
}

// TestMessagesOf: a frame the split does not follow is decoded in full,
// with none of what the split took before it gave up.
func TestMessagesOf(t *testing.T) {
	for _, in := range []string{`[{"a":1},{"b":2}]`, `[{"a":1},2,{"b":3}]`, ` [ {"a":1} , "x" ] `} {
		got, err := messagesOf([]byte(in), nil)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		checkSplit(t, []byte(in), got)
	}
	if _, err := messagesOf([]byte(`[{"a":1},`), nil); client.CodeOf(err) != "bad_frame" {
		t.Errorf("a broken frame: %v, want bad_frame", err)
	}
}

// checkSplit checks that the elements split from data are those of
// json.Unmarshal.
func checkSplit(t *testing.T, data []byte, got [][]byte) {
	t.Helper()
	var want []json.RawMessage
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%q: split, but json says %v", data, err)
	}
	if len(got) != len(want) {
		t.Fatalf("%q: %d elements, json has %d", data, len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("%q: element %d is %q, json has %q", data, i, got[i], want[i])
		}
	}
}

// FuzzSplitArray: whatever splitArray splits of valid JSON is what
// json.Unmarshal finds, and every valid array of objects is split.
func FuzzSplitArray(f *testing.F) {
	for _, s := range []string{`[]`, `[{"type":"ack","id":"R1","seq":3},{"type":"event","seq":3,"d":{}}]`,
		`[{"a":"\"}"}]`, `[{"a":[1,{"b":"]"}]}]`, `[{},1]`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := splitArray(data, nil)
		var raw []json.RawMessage
		err := json.Unmarshal(data, &raw)
		objects := err == nil && raw != nil // null decodes into a nil slice
		for _, m := range raw {
			objects = objects && m[0] == '{'
		}
		switch {
		case ok && json.Valid(data):
			checkSplit(t, data, got)
		case !ok && objects:
			t.Fatalf("%q: a valid array of objects not split", data)
		}
	})
}

// TestParseAck checks the ack fast path against json.Unmarshal, and that
// what it does not follow is left to it.
func TestParseAck(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{`{"type":"ack","id":"R12","seq":34}`, true},
		{`{"type":"ack","id":"","seq":0}`, true},
		{`{"type":"ack","id":"R1","seq":3,"duplicate":true}`, false},
		{`{"type":"ack","id":"R\"1","seq":3}`, false},
		{`{"type":"ack","id":"R1","seq":-3}`, false},
		{`{"type":"ack","id":"R1","seq":}`, false},
		{`{"type":"ack","seq":3,"id":"R1"}`, false},
		{`{"type":"reject","id":"R1","error":{"code":"illegal_move","message":"no"}}`, false},
	} {
		got, ok := parseAck([]byte(tc.in))
		if ok != tc.ok {
			t.Errorf("%s: ok %v, want %v", tc.in, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		var want answer
		if err := json.Unmarshal([]byte(tc.in), &want); err != nil {
			t.Fatal(err)
		}
		if *got != want {
			t.Errorf("%s: %+v, json has %+v", tc.in, *got, want)
		}
	}
}
