package table

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"dsol/internal/cards"
	"dsol/internal/input"
	"dsol/internal/klondike"
	"dsol/internal/store"
)

// Code is the machine-readable code of an error, as sent to clients in
// {"error": {"code", "message"}} and in WebSocket rejects (docs/protocol.md).
type Code string

// The error codes of the API: the first twelve are the contract clients rely
// on; too_large, method_not_allowed, internal and expired complete them.
const (
	BadRequest       Code = "bad_request"
	BadCode          Code = "bad_code"
	Unauthorized     Code = "unauthorized"
	Forbidden        Code = "forbidden"
	NotFound         Code = "not_found"
	IllegalMove      Code = "illegal_move"
	TooLate          Code = "too_late"
	NotYourTurn      Code = "not_your_turn"
	GameOver         Code = "game_over"
	Conflict         Code = "conflict"
	RateLimited      Code = "rate_limited"
	Unavailable      Code = "unavailable"
	TooLarge         Code = "too_large"
	MethodNotAllowed Code = "method_not_allowed"
	Internal         Code = "internal"
	// Expired: a transfer code that has expired or was used already.
	Expired Code = "expired"
)

// codeInfo is one row of the error table: the HTTP status of a REST answer and
// the close code of a WebSocket closed because of the error.
type codeInfo struct {
	status int
	close  int
}

// codes is the one table from error code to HTTP status and WebSocket close
// code. Application close codes are 4000 + the HTTP status; the standard codes
// are used where RFC 6455 has one (1009 too big, 1011 internal, 1013 try
// again later).
var codes = map[Code]codeInfo{
	BadRequest:       {http.StatusBadRequest, 4400},
	BadCode:          {http.StatusBadRequest, 4400},
	Unauthorized:     {http.StatusUnauthorized, 4401},
	Forbidden:        {http.StatusForbidden, 4403},
	NotFound:         {http.StatusNotFound, 4404},
	IllegalMove:      {http.StatusUnprocessableEntity, 4422},
	TooLate:          {http.StatusConflict, 4409},
	NotYourTurn:      {http.StatusConflict, 4409},
	GameOver:         {http.StatusConflict, 4409},
	Conflict:         {http.StatusConflict, 4409},
	RateLimited:      {http.StatusTooManyRequests, 4429},
	Unavailable:      {http.StatusServiceUnavailable, 1013},
	TooLarge:         {http.StatusRequestEntityTooLarge, 1009},
	MethodNotAllowed: {http.StatusMethodNotAllowed, 4405},
	Internal:         {http.StatusInternalServerError, 1011},
	Expired:          {http.StatusGone, 4410},
}

// Codes lists every error code, for documentation and tests.
func Codes() []Code {
	return []Code{BadRequest, BadCode, Unauthorized, Forbidden, NotFound, IllegalMove,
		TooLate, NotYourTurn, GameOver, Conflict, RateLimited, Unavailable, TooLarge,
		MethodNotAllowed, Internal, Expired}
}

// HTTPStatus returns the HTTP status of a REST answer carrying the code (500
// for an unknown code).
func (c Code) HTTPStatus() int {
	if i, ok := codes[c]; ok {
		return i.status
	}
	return http.StatusInternalServerError
}

// CloseCode returns the WebSocket close code for a connection closed because
// of the error (1011 for an unknown code).
func (c Code) CloseCode() int {
	if i, ok := codes[c]; ok {
		return i.close
	}
	return 1011
}

// Error is the domain error of the server: a code for machines, a message
// for people, and for internal errors the cause, which is logged and never
// sent.
type Error struct {
	Code Code
	Msg  string
	Err  error // the cause; not shown to clients
}

// Error implements error: the code, the message and the cause, for logs.
func (e *Error) Error() string {
	if e.Err != nil {
		return "table: " + string(e.Code) + ": " + e.Msg + ": " + e.Err.Error()
	}
	return "table: " + string(e.Code) + ": " + e.Msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Sentinel errors of the table layer.
var (
	// ErrStopped means the table stopped (evicted, reloaded or closing) before
	// it took the request; nothing was applied. Registry methods retry on it.
	ErrStopped = errors.New("table: stopped")
	// ErrClosed means the registry is closed: the server is shutting down.
	ErrClosed = errors.New("table: registry closed")
	// ErrSlow means a subscriber did not keep up and was dropped.
	ErrSlow = errors.New("table: subscriber too slow")
	// ErrReloaded means the table rebuilt itself from the store (another node
	// wrote to the game); subscribers must resubscribe.
	ErrReloaded = errors.New("table: reloaded from the store")
)

// AsError maps any error to the domain error: engine refusals, malformed game
// codes, store and context errors keep their meaning; anything else is
// Internal, with the original error kept as the cause.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var ke *klondike.Error
	if errors.As(err, &ke) {
		return &Error{Code: Code(ke.Code), Msg: ke.Msg}
	}
	var ce *cards.CodeError
	if errors.As(err, &ce) {
		return &Error{Code: BadCode, Msg: fmt.Sprintf("bad game code %s: %s", input.Quote(ce.Input), ce.Part)}
	}
	if isElsewhere(err) {
		return &Error{Code: Unavailable, Msg: "the game is moving between nodes; retry", Err: err}
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		return &Error{Code: NotFound, Msg: "not found"}
	case errors.Is(err, store.ErrConflict):
		return &Error{Code: Conflict, Msg: "the game moved on; reload it", Err: err}
	case errors.Is(err, store.ErrUnavailable), errors.Is(err, store.ErrClosed),
		errors.Is(err, ErrClosed), errors.Is(err, ErrStopped),
		errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return &Error{Code: Unavailable, Msg: "the server cannot store the game right now; retry", Err: err}
	}
	return &Error{Code: Internal, Msg: "internal error", Err: err}
}
