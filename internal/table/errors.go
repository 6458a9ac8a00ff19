package table

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
	if isElsewhere(err) {
		return &game.Error{Code: game.Unavailable, Msg: "the game is moving between nodes; retry", Err: err}
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
