package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
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
