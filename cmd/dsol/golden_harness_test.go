package main

import (
	"slices"
	"strings"
	"testing"
)

// TestGoldenNormalizer: the values the server draws are learnt from the
// keys that carry them, in document order, and replaced everywhere, a
// longer value before a shorter one; the rest is left byte for byte.
func TestGoldenNormalizer(t *testing.T) {
	n := newNormalizer()
	n.fixed("127.0.0.1:4242", "<host>")
	id1, id2 := "AAAAbbbbCCCC-_11", "ZZZZyyyyXXXX0000"
	tok := strings.Repeat("t", 43)
	body := `{"token":"` + tok + `","player":{"id":"` + id2 + `","name":"Ada"},` +
		`"games":[{"id":"` + id1 + `","code":"DS1-D1N-AAAAAAB"},{"id":"c1"}],` +
		`"salt":"0123456789abcdef0123456789abcdef","url":"http://127.0.0.1:4242/#link=K7Q4-M2XD-9TPA",` +
		`"code":"K7Q4-M2XD-9TPA","msg":"game ` + id1 + ` \u003c"}`
	n.register([]byte(body))
	got := string(n.apply([]byte(body)))
	want := `{"token":"<token:1>","player":{"id":"<id:1>","name":"Ada"},` +
		`"games":[{"id":"<id:2>","code":"DS1-D1N-AAAAAAB"},{"id":"c1"}],` +
		`"salt":"<salt:1>","url":"http://<host>/#link=<link:1>",` +
		`"code":"<link:1>","msg":"game <id:2> \u003c"}`
	if got != want {
		t.Fatalf("normalized:\n got %s\nwant %s", got, want)
	}
	if p := n.applyString("/api/v1/games/" + id1 + "/ws"); p != "/api/v1/games/<id:2>/ws" {
		t.Fatalf("path: %s", p)
	}
	n.register([]byte(`{"id":"` + id1 + `","game":"` + strings.Repeat("g", 16) + `"}`))
	if got := n.applyString(id1 + " " + strings.Repeat("g", 16)); got != "<id:2> <id:3>" {
		t.Fatalf("a value seen again keeps its placeholder: %s", got)
	}
}

// TestGoldenDiff: the first differing line is named with its step, the
// lines before it and the column where the two part.
func TestGoldenDiff(t *testing.T) {
	want := "{\"step\":\"one\"}\n{\"a\":1}\n{\"b\":\"xyz\"}\n"
	tests := []struct {
		name string
		got  string
		has  []string
	}{
		{"same", want, nil},
		{"a value", "{\"step\":\"one\"}\n{\"a\":1}\n{\"b\":\"xYz\"}\n",
			[]string{"line 3", `in {"step":"one"}`, "  2: {\"a\":1}", "column 8", "- want: …{\"b\":\"xyz\"}", "+ got:  …{\"b\":\"xYz\"}"}},
		{"a line missing", "{\"step\":\"one\"}\n{\"a\":1}\n",
			[]string{"line 3", "want 4 lines, got 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := goldenDiff([]byte(want), []byte(tt.got))
			if (msg == "") != (tt.has == nil) {
				t.Fatalf("diff %q", msg)
			}
			for _, h := range tt.has {
				if !strings.Contains(msg, h) {
					t.Errorf("%q is not in the diff:\n%s", h, msg)
				}
			}
		})
	}
}

// TestGoldenWindow: a window is recorded with the feed first and the
// answers after, each in the order it came.
func TestGoldenWindow(t *testing.T) {
	var window []goldenMsg
	for _, typ := range []string{"event", "ack", "over", "pong", "presence", "reject"} {
		window = append(window, goldenMsg{Type: typ})
	}
	var got []string
	for _, m := range feedThenAnswers(window) {
		got = append(got, m.Type)
	}
	if want := []string{"event", "over", "presence", "ack", "pong", "reject"}; !slices.Equal(got, want) {
		t.Fatalf("recorded %v, want %v", got, want)
	}
}
