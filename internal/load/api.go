package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// errCtxDone marks a call cut short by the end of the run: not an error of
// the server.
var errCtxDone = errors.New("run over")

// apiError is an error answer of the server, or a failure to reach it
// (code "transport", or "ws_close_N" for a WebSocket closed by the server).
type apiError struct {
	code string
	msg  string
}

func (e *apiError) Error() string { return e.code + ": " + e.msg }

// codeOf returns the error code to count for err.
func codeOf(err error) string {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.code
	}
	return "transport"
}

// sleep waits for d or the end of ctx, reporting whether the wait was full.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// wsError names a WebSocket failure.
func wsError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return errCtxDone
	}
	if s := websocket.CloseStatus(err); s != -1 {
		return &apiError{"ws_close_" + strconv.Itoa(int(s)), err.Error()}
	}
	return &apiError{"transport", err.Error()}
}

// postJSON sends body to url in a POST (see doJSON).
func postJSON(ctx context.Context, hc *http.Client, url, token string, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	return doJSON(ctx, hc, req, token, out)
}

// getJSON sends a GET to url (see doJSON).
func getJSON(ctx context.Context, hc *http.Client, url, token string, out any) error {
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
			return errCtxDone
		}
		return &apiError{"transport", err.Error()}
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
				return errCtxDone
			}
			return &apiError{"transport", err.Error()}
		}
		return nil
	}
	var e struct {
		Error struct{ Code, Message string }
	}
	raw, _ := io.ReadAll(res.Body)
	if json.Unmarshal(raw, &e) != nil || e.Error.Code == "" {
		return &apiError{"http_" + strconv.Itoa(res.StatusCode), string(raw)}
	}
	return &apiError{e.Error.Code, e.Error.Message}
}

// newHTTPClient is the HTTP client of a run with conns connections at once:
// no proxy (only ever the given URL), and as many idle connections kept, and
// a few more.
func newHTTPClient(conns int) *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:               nil,
		MaxIdleConns:        conns + 10,
		MaxIdleConnsPerHost: conns + 10,
		IdleConnTimeout:     90 * time.Second,
	}}
}

// retry counts an error of a setup or of starting a game in errs and reports
// whether to try again: after a pause (a second when rate limited), and
// never once ctx is over.
func retry(ctx context.Context, errs map[string]int, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	code := codeOf(err)
	errs[code]++
	pause := 100 * time.Millisecond
	if code == "rate_limited" {
		pause = rateLimitPause
	}
	return sleep(ctx, pause)
}

// persist calls f until it succeeds or retry gives up, and reports whether
// it succeeded.
func persist(ctx context.Context, errs map[string]int, f func(context.Context) error) bool {
	for {
		err := f(ctx)
		if err == nil {
			return true
		}
		if !retry(ctx, errs, err) {
			return false
		}
	}
}

// signUp creates a player named load and returns its token, trying again
// as persist does; false when it gave up.
func signUp(ctx context.Context, hc *http.Client, base string, errs map[string]int) (string, bool) {
	var p struct{ Token string }
	ok := persist(ctx, errs, func(ctx context.Context) error {
		return postJSON(ctx, hc, base+"/api/v1/players", "", []byte(`{"name":"load"}`), &p)
	})
	return p.Token, ok
}

// socketURL is the address of a game's socket, asking for protocol 2 when
// v2 (a server without it ignores the ask and sends whole views).
func socketURL(base, game string, v2 bool) string {
	u := "ws" + strings.TrimPrefix(base, "http") + "/api/v1/games/" + game + "/ws"
	if v2 {
		u += "?v=2"
	}
	return u
}

// dialGame opens the socket of a game as the player of token (see
// socketURL); a refusal for too many sockets is rate_limited.
func dialGame(ctx context.Context, hc *http.Client, base, game, token string, v2 bool) (*websocket.Conn, error) {
	conn, res, err := websocket.Dial(ctx, socketURL(base, game, v2), &websocket.DialOptions{
		HTTPClient: hc,
		HTTPHeader: http.Header{"Authorization": {"Bearer " + token}},
	})
	if err != nil {
		if res != nil && res.StatusCode == http.StatusTooManyRequests {
			return nil, &apiError{"rate_limited", err.Error()}
		}
		return nil, wsError(ctx, err)
	}
	conn.SetReadLimit(1 << 20)
	return conn, nil
}

// actionFrame is the socket message of an action: {"type":"action",
// "id":id,"action":action}.
func actionFrame(id string, action []byte) []byte {
	frame := make([]byte, 0, len(action)+48)
	frame = append(frame, `{"type":"action","id":"`...)
	frame = append(frame, id...)
	frame = append(frame, `","action":`...)
	return append(append(frame, action...), '}')
}
