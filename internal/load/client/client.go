// Package client is what every mode of dsol load shares to talk to a dsol
// server and read its figures: its REST calls and game sockets, the error
// codes a run counts, the pauses and retries of a client, and the readers
// of the server's CPU time and memory (from /proc or its /metrics).
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// ErrCtxDone marks a call cut short by the end of the run: not an error of
// the server.
var ErrCtxDone = errors.New("run over")

// RateLimitPause is how long a client waits after a rate_limited answer
// before it sends the same action again. A second is what REST's
// Retry-After says, and lets a WebSocket's strike bucket (one a second)
// refill, so that a client pressing against the limit is never closed.
const RateLimitPause = time.Second

// Error is an error answer of the server, or a failure to reach it (code
// "transport", or "ws_close_N" for a WebSocket closed by the server), or a
// frame the tool could not read (such as "bad_frame").
type Error struct {
	Code    string
	Message string
}

// Error returns "code: message".
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// CodeOf returns the error code to count for err.
func CodeOf(err error) string {
	var ae *Error
	if errors.As(err, &ae) {
		return ae.Code
	}
	return "transport"
}

// ErrorList writes error counts as "code n, code n" in code order.
func ErrorList(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	codes := make([]string, 0, len(m))
	for c := range m {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	var b strings.Builder
	for i, c := range codes {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", c, m[c])
	}
	return b.String()
}

// Parallel runs f(0) … f(n-1) on workers goroutines and waits for them.
func Parallel(workers, n int, f func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				f(i)
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}

// Sleep waits for d or the end of ctx, reporting whether the wait was full.
func Sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// WSError names a WebSocket failure: ErrCtxDone once ctx is over.
func WSError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ErrCtxDone
	}
	if s := websocket.CloseStatus(err); s != -1 {
		return &Error{"ws_close_" + strconv.Itoa(int(s)), err.Error()}
	}
	return &Error{"transport", err.Error()}
}

// PostJSON sends body to url in a POST, with the player's token when not
// empty, and decodes a 2xx answer into out (when not nil), or returns the
// error code of the answer as an *Error.
func PostJSON(ctx context.Context, hc *http.Client, url, token string, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	return doJSON(ctx, hc, req, token, out)
}

// GetJSON sends a GET to url (see PostJSON).
func GetJSON(ctx context.Context, hc *http.Client, url, token string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	return doJSON(ctx, hc, req, token, out)
}

// doJSON sends req, with the player's token when not empty, and decodes a
// 2xx answer into out (when not nil), or returns the error code of the
// answer.
func doJSON(ctx context.Context, hc *http.Client, req *http.Request, token string, out any) error {
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ErrCtxDone
		}
		return &Error{"transport", err.Error()}
	}
	defer res.Body.Close()
	if res.StatusCode/100 == 2 {
		if out == nil {
			_, err = io.Copy(io.Discard, res.Body)
		} else {
			err = json.NewDecoder(res.Body).Decode(out)
			io.Copy(io.Discard, res.Body)
		}
		if err != nil {
			if ctx.Err() != nil {
				return ErrCtxDone
			}
			return &Error{"transport", err.Error()}
		}
		return nil
	}
	var e struct {
		Error struct{ Code, Message string }
	}
	raw, _ := io.ReadAll(res.Body)
	if json.Unmarshal(raw, &e) != nil || e.Error.Code == "" {
		return &Error{"http_" + strconv.Itoa(res.StatusCode), string(raw)}
	}
	return &Error{e.Error.Code, e.Error.Message}
}

// NewHTTPClient is the HTTP client of a run with conns connections at once:
// no proxy (only ever the given URL), and as many idle connections kept, and
// a few more.
func NewHTTPClient(conns int) *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:               nil,
		MaxIdleConns:        conns + 10,
		MaxIdleConnsPerHost: conns + 10,
		IdleConnTimeout:     90 * time.Second,
	}}
}

// Retry counts an error of a setup or of starting a game in errs and reports
// whether to try again: after a pause (a second when rate limited), and
// never once ctx is over.
func Retry(ctx context.Context, errs map[string]int, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	code := CodeOf(err)
	errs[code]++
	pause := 100 * time.Millisecond
	if code == "rate_limited" {
		pause = RateLimitPause
	}
	return Sleep(ctx, pause)
}

// Persist calls f until it succeeds or Retry gives up, and reports whether
// it succeeded.
func Persist(ctx context.Context, errs map[string]int, f func(context.Context) error) bool {
	for {
		err := f(ctx)
		if err == nil {
			return true
		}
		if !Retry(ctx, errs, err) {
			return false
		}
	}
}

// SignUp creates a player named load and returns its token, trying again
// as Persist does; false when it gave up.
func SignUp(ctx context.Context, hc *http.Client, base string, errs map[string]int) (string, bool) {
	_, token, ok := NewPlayer(ctx, hc, base, errs)
	return token, ok
}

// NewPlayer creates a player named load and returns its id and token, trying
// again as Persist does; false when it gave up.
func NewPlayer(ctx context.Context, hc *http.Client, base string, errs map[string]int) (id, token string, ok bool) {
	var p struct{ ID, Token string }
	ok = Persist(ctx, errs, func(ctx context.Context) error {
		return PostJSON(ctx, hc, base+"/api/v1/players", "", []byte(`{"name":"load"}`), &p)
	})
	return p.ID, p.Token, ok
}

// SocketURL is the address of a game's socket, asking for protocol 2 when
// v2 (a server without it ignores the ask and sends whole views).
func SocketURL(base, game string, v2 bool) string {
	u := "ws" + strings.TrimPrefix(base, "http") + "/api/v1/games/" + game + "/ws"
	if v2 {
		u += "?v=2"
	}
	return u
}

// DialGame opens the socket of a game as the player of token (see
// SocketURL); a refusal for too many sockets is rate_limited.
func DialGame(ctx context.Context, hc *http.Client, base, game, token string, v2 bool) (*websocket.Conn, error) {
	return dial(ctx, hc, SocketURL(base, game, v2), token)
}

// ArenaSocketURL is the address of an arena's socket.
func ArenaSocketURL(base, arena string) string {
	return "ws" + strings.TrimPrefix(base, "http") + "/api/v1/arenas/" + arena + "/ws"
}

// DialArena opens the socket of an arena as the player of token; a refusal
// for too many sockets is rate_limited.
func DialArena(ctx context.Context, hc *http.Client, base, arena, token string) (*websocket.Conn, error) {
	return dial(ctx, hc, ArenaSocketURL(base, arena), token)
}

// dial opens the WebSocket at url as the player of token.
func dial(ctx context.Context, hc *http.Client, url, token string) (*websocket.Conn, error) {
	conn, res, err := websocket.Dial(ctx, url, &websocket.DialOptions{
		HTTPClient: hc,
		HTTPHeader: http.Header{"Authorization": {"Bearer " + token}},
	})
	if err != nil {
		if res != nil && res.StatusCode == http.StatusTooManyRequests {
			return nil, &Error{"rate_limited", err.Error()}
		}
		if res != nil && res.StatusCode == http.StatusServiceUnavailable {
			return nil, &Error{"unavailable", err.Error()}
		}
		return nil, WSError(ctx, err)
	}
	conn.SetReadLimit(1 << 20)
	return conn, nil
}

// ActionFrame is the socket message of an action: {"type":"action",
// "id":id,"action":action}.
func ActionFrame(id string, action []byte) []byte {
	frame := make([]byte, 0, len(action)+48)
	frame = append(frame, `{"type":"action","id":"`...)
	frame = append(frame, id...)
	frame = append(frame, `","action":`...)
	return append(append(frame, action...), '}')
}
