package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/game"
)

// Wait bounds every wait of a Client or a Socket (a handshake, a read, a
// write): a deadline against hangs, never an assertion about speed.
const Wait = 20 * time.Second

// Client is a player (or nobody) talking to a server over REST and
// WebSockets, as a test does: the methods that take a testing.TB fail the
// test when the server does not answer as they expect.
type Client struct {
	// URL is the server's base URL, such as "http://127.0.0.1:8080".
	URL string
	// HTTP sends the requests and the handshakes; nil: http.DefaultClient.
	HTTP *http.Client
	// Header is sent with every request and every handshake.
	Header http.Header
}

// NewClient returns a client of the server at url sending with hc (nil:
// http.DefaultClient) and, unless token is "", the Bearer token.
func NewClient(url string, hc *http.Client, token string) *Client {
	c := &Client{URL: url, HTTP: hc, Header: http.Header{}}
	if token != "" {
		c.Header.Set("Authorization", "Bearer "+token)
	}
	return c
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP == nil {
		return http.DefaultClient
	}
	return c.HTTP
}

// Request sends a request and returns the status, the body and the error
// without failing any test, for goroutines and for callers that retry. body
// is sent as it is when it is a string or a []byte and JSON-encoded
// otherwise; a nil body sends none, and no Content-Type.
func (c *Client) Request(ctx context.Context, method, path string, body any) (int, []byte, error) {
	res, raw, err := c.send(ctx, method, path, body)
	if err != nil {
		return 0, nil, err
	}
	return res.StatusCode, raw, nil
}

// send is Request with the whole answer.
func (c *Client) send(ctx context.Context, method, path string, body any) (*http.Response, []byte, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			return nil, nil, err
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.URL+path, rd)
	if err != nil {
		return nil, nil, err
	}
	for k, v := range c.Header {
		req.Header[k] = v
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.httpClient().Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return res, raw, err
}

// Do sends a request (body as for Request) and returns the status and the
// body. It fails the test when the request cannot be sent, and when an
// error answer (a status of 400 or more) is not JSON: every error of the
// API is.
func (c *Client) Do(tb testing.TB, method, path string, body any) (int, []byte) {
	tb.Helper()
	res, raw, err := c.send(context.Background(), method, path, body)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, path, err)
	}
	if ct := res.Header.Get("Content-Type"); res.StatusCode >= 400 && ct != "application/json" {
		tb.Fatalf("%s %s: %d with content type %q: %s", method, path, res.StatusCode, ct, raw)
	}
	return res.StatusCode, raw
}

// MustJSON sends a request as Do does, checks the answer's status and, unless
// out is nil, decodes the answer into out; it returns the answer.
func (c *Client) MustJSON(tb testing.TB, method, path string, body any, status int, out any) []byte {
	tb.Helper()
	got, raw := c.Do(tb, method, path, body)
	if got != status {
		tb.Fatalf("%s %s: status %d, want %d: %s", method, path, got, status, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			tb.Fatalf("%s %s: %v: %s", method, path, err, raw)
		}
	}
	return raw
}

// ErrorBody is the JSON body of an error answer.
type ErrorBody struct {
	Error struct {
		Code    game.Code `json:"code"`
		Message string    `json:"message"`
	} `json:"error"`
}

// MustError sends a request as Do does and checks that the answer is an
// error of status and code, with a message.
func (c *Client) MustError(tb testing.TB, method, path string, body any, status int, code game.Code) {
	tb.Helper()
	var e ErrorBody
	c.MustJSON(tb, method, path, body, status, &e)
	if e.Error.Code != code || e.Error.Message == "" {
		tb.Fatalf("%s %s: error %+v, want code %s", method, path, e.Error, code)
	}
}

// Handshake dials a socket on path of the client's server with the client's
// header and header (which may be nil) over it, and returns what the
// handshake gave without failing any test: the socket, the server's HTTP
// answer and the error. It is for tests of refused handshakes; the caller
// closes the socket.
func (c *Client) Handshake(ctx context.Context, path string, header http.Header) (*websocket.Conn, *http.Response, error) {
	h := c.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	for k, v := range header {
		h[k] = v
	}
	u := "ws" + strings.TrimPrefix(c.URL, "http") + path
	return websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h, HTTPClient: c.HTTP})
}

// Dial opens a socket as Handshake does and fails the test if it cannot;
// the socket is closed when the test ends.
func (c *Client) Dial(tb testing.TB, path string, header http.Header) *Socket {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	ws, res, err := c.Handshake(ctx, path, header)
	if err != nil {
		status := 0
		if res != nil {
			status = res.StatusCode
		}
		tb.Fatalf("dial %s: %v (status %d)", path, err, status)
	}
	tb.Cleanup(func() { ws.CloseNow() })
	return &Socket{Conn: ws, tb: tb}
}

// Socket is a test's WebSocket: each read and write waits at most Wait, and
// the methods but Read fail the test that dialled it when the socket does
// not do as they expect.
type Socket struct {
	// Conn is the socket itself, for what the methods do not do.
	Conn *websocket.Conn
	tb   testing.TB
}

// Read reads the next message, or the error that ends the socket.
func (s *Socket) Read() ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	_, b, err := s.Conn.Read(ctx)
	return b, err
}

// ReadJSON reads the next message into out and returns it.
func (s *Socket) ReadJSON(out any) []byte {
	s.tb.Helper()
	b, err := s.Read()
	if err != nil {
		s.tb.Fatalf("read: %v", err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		s.tb.Fatalf("%s: %v", b, err)
	}
	return b
}

// Send writes msg in a text frame.
func (s *Socket) Send(msg string) {
	s.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	if err := s.Conn.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		s.tb.Fatalf("write: %v", err)
	}
}

// Act sends an action message: the client id and the action's JSON.
func (s *Socket) Act(id, action string) {
	s.tb.Helper()
	j, _ := json.Marshal(id) // a string always encodes
	s.Send(`{"type":"action","id":` + string(j) + `,"action":` + action + `}`)
}

// MustClosed reads the socket's close, which must come next and have code.
func (s *Socket) MustClosed(code websocket.StatusCode) {
	s.tb.Helper()
	b, err := s.Read()
	if websocket.CloseStatus(err) != code {
		s.tb.Fatalf("read %s, %v; want the close %d", b, err, code)
	}
}
