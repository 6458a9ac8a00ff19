package apitest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"dsol/internal/game"
)

// echoServer answers /echo with what it was sent, /error with a JSON error,
// /text with a plain-text error, and /ws with a socket that echoes one
// message and then closes with 4000.
func echoServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]string{"method": r.Method, "auth": r.Header.Get("Authorization"),
			"type": r.Header.Get("Content-Type"), "body": string(body)})
	})
	mux.HandleFunc("/error", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"code":"bad_request","message":"no"}}`)
	})
	mux.HandleFunc("/text", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "oops", http.StatusInternalServerError) })
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok" || r.Header.Get("X-Extra") != "1" {
			http.Error(w, "who", http.StatusUnauthorized)
			return
		}
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		typ, b, err := c.Read(r.Context())
		if err != nil {
			return
		}
		c.Write(r.Context(), typ, b)
		c.Close(4000, "bye")
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// recorder is a testing.TB whose Fatal and Fatalf record the failure and
// end the goroutine, as the testing package's do.
type recorder struct {
	testing.TB
	failure string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatal(args ...any) { r.failure = fmt.Sprint(args...); runtime.Goexit() }

func (r *recorder) Fatalf(format string, args ...any) {
	r.failure = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// failure runs f with a recorder and returns what failed it ("": nothing).
func failure(t *testing.T, f func(tb testing.TB)) string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.failure
}

func TestClientRequests(t *testing.T) {
	s := echoServer(t)
	c := NewClient(s.URL, s.Client(), "tok")
	var got map[string]string
	c.MustJSON(t, "POST", "/echo", map[string]int{"n": 1}, 200, &got)
	if got["method"] != "POST" || got["auth"] != "Bearer tok" || got["type"] != "application/json" || got["body"] != `{"n":1}` {
		t.Fatalf("a JSON body: the server saw %v", got)
	}
	NewClient(s.URL, nil, "").MustJSON(t, "GET", "/echo", nil, 200, &got)
	if got["auth"] != "" || got["type"] != "" || got["body"] != "" {
		t.Fatalf("no body, no token: the server saw %v", got)
	}
	c.MustJSON(t, "PUT", "/echo", `{"raw":true}`, 200, &got)
	if got["body"] != `{"raw":true}` {
		t.Fatalf("a string body: the server saw %v", got)
	}
	c.MustError(t, "GET", "/error", nil, 400, game.BadRequest)
	if status, raw, err := c.Request(context.Background(), "GET", "/error", nil); err != nil || status != 400 || !strings.Contains(string(raw), "bad_request") {
		t.Fatalf("Request: %d %s %v", status, raw, err)
	}

	for _, tc := range []struct {
		name string
		f    func(tb testing.TB)
		want string
	}{
		{"wrong status", func(tb testing.TB) { c.MustJSON(tb, "GET", "/echo", nil, 201, nil) }, "status 200, want 201"},
		{"not JSON", func(tb testing.TB) { c.MustJSON(tb, "GET", "/echo", nil, 200, &[]int{}) }, "cannot unmarshal"},
		{"text error", func(tb testing.TB) { c.Do(tb, "GET", "/text", nil) }, `content type "text/plain`},
		{"other code", func(tb testing.TB) { c.MustError(tb, "GET", "/error", nil, 400, game.NotFound) }, "want code not_found"},
		{"other status", func(tb testing.TB) { c.MustError(tb, "GET", "/error", nil, 409, game.BadRequest) }, "status 400, want 409"},
	} {
		if got := failure(t, tc.f); !strings.Contains(got, tc.want) {
			t.Errorf("%s: failed with %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestSocket(t *testing.T) {
	s := echoServer(t)
	c := NewClient(s.URL, s.Client(), "tok")
	extra := http.Header{"X-Extra": {"1"}}
	ws := c.Dial(t, "/ws", extra)
	ws.Act(`a"1`, `{"type":"draw"}`)
	var m struct {
		Type, ID string
		Action   struct{ Type string }
	}
	if ws.ReadJSON(&m); m.Type != "action" || m.ID != `a"1` || m.Action.Type != "draw" {
		t.Fatalf("echoed %+v", m)
	}
	ws.MustClosed(4000)

	if got := failure(t, func(tb testing.TB) { c.Dial(tb, "/ws", nil) }); !strings.Contains(got, "status 401") {
		t.Errorf("a refused dial failed with %q", got)
	}
	if _, res, err := c.Handshake(context.Background(), "/ws", nil); err == nil || res == nil || res.StatusCode != 401 {
		t.Errorf("a refused handshake: %v, %v", res, err)
	}
	if got := failure(t, func(tb testing.TB) {
		ws := c.Dial(tb, "/ws", extra)
		ws.Send("{}")
		var echo any
		ws.ReadJSON(&echo)
		ws.MustClosed(4001)
	}); !strings.Contains(got, "want the close 4001") {
		t.Errorf("another close code failed with %q", got)
	}
}
