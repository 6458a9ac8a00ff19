package game

import "fmt"

// Code is the machine-readable code of an error, as sent to clients in
// {"error": {"code", "message"}} and in WebSocket rejects (docs/protocol.md).
// The strings are a contract: clients rely on them.
type Code string

// The error codes of the API: the first twelve are the contract clients rely
// on; too_large, method_not_allowed, internal, expired and too_long complete
// them.
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
	// TooLong: a game that has as many actions as a game may have
	// (klondike.MaxActions).
	TooLong Code = "too_long"
)

// Codes lists every error code, for documentation, the transports' tables
// and tests.
func Codes() []Code {
	return []Code{BadRequest, BadCode, Unauthorized, Forbidden, NotFound, IllegalMove,
		TooLate, NotYourTurn, GameOver, Conflict, RateLimited, Unavailable, TooLarge,
		MethodNotAllowed, Internal, Expired, TooLong}
}

// Error is the domain error of the server: a code for machines, a message
// for people, and for internal errors the cause, which is logged and never
// sent.
type Error struct {
	Code Code
	Msg  string
	// Game is the game the refusal is about, when the player may go to it:
	// the race in play that keeps them from another. Sent as the error's
	// "game".
	Game string
	Err  error // the cause; not shown to clients
}

// Error implements error: the code, the message and the cause, for logs.
func (e *Error) Error() string {
	if e.Err != nil {
		return "game: " + string(e.Code) + ": " + e.Msg + ": " + e.Err.Error()
	}
	return "game: " + string(e.Code) + ": " + e.Msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}
