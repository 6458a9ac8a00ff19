package protocol

import (
	"context"
	"errors"
	"fmt"

	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/input"
	"dsol/internal/klondike"
	"dsol/internal/store"
)

// Why a live game did not take a request, or ended a feed: a transport
// answers each as the protocol says (retry, reconnect with since, close).
var (
	// ErrStopped means the game's table stopped (evicted, reloaded or
	// closing) before it took the request; nothing was applied. The game
	// service retries on it.
	ErrStopped = errors.New("protocol: the game's table stopped")
	// ErrClosed means the server's tables are closed: it is shutting down.
	ErrClosed = errors.New("protocol: the server is closing")
	// ErrSlow means a subscriber did not keep up and was dropped.
	ErrSlow = errors.New("protocol: subscriber too slow")
	// ErrReloaded means the table rebuilt itself from the store (another node
	// wrote to the game); subscribers must resubscribe.
	ErrReloaded = errors.New("protocol: the game was reloaded from the store")
	// ErrMoved is why a table stopped when its game moved to another node
	// (its lease was lost or handed over); it is an ErrStopped, so the game
	// service retries (and then learns where the game is).
	ErrMoved = fmt.Errorf("%w: the game moved to another node", ErrStopped)
)

// A CodedError knows the error a client is told of it (the ownership of a
// game on another node is unavailable: retry).
type CodedError interface {
	error
	GameError() *game.Error
}

// AsError maps any error to the domain error: engine refusals, malformed game
// codes, store and context errors keep their meaning; anything else is
// Internal, with the original error kept as the cause.
func AsError(err error) *game.Error {
	if err == nil {
		return nil
	}
	var e *game.Error
	if errors.As(err, &e) {
		return e
	}
	var ke *klondike.Error
	if errors.As(err, &ke) {
		return &game.Error{Code: game.Code(ke.Code), Msg: ke.Msg}
	}
	var ce *cards.CodeError
	if errors.As(err, &ce) {
		return &game.Error{Code: game.BadCode, Msg: fmt.Sprintf("bad game code %s: %s", input.Quote(ce.Input), ce.Part)}
	}
	var coded CodedError
	if errors.As(err, &coded) {
		return coded.GameError()
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		return &game.Error{Code: game.NotFound, Msg: "not found"}
	case errors.Is(err, store.ErrConflict):
		return &game.Error{Code: game.Conflict, Msg: "the game moved on; reload it", Err: err}
	case errors.Is(err, store.ErrUnavailable), errors.Is(err, store.ErrClosed),
		errors.Is(err, ErrClosed), errors.Is(err, ErrStopped),
		errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return &game.Error{Code: game.Unavailable, Msg: "the server cannot store the game right now; retry", Err: err}
	}
	return &game.Error{Code: game.Internal, Msg: "internal error", Err: err}
}
