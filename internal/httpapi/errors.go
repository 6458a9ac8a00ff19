package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5/middleware"

	"dsol/internal/game"
	"dsol/internal/input"
	"dsol/internal/protocol"
)

// errorBody is the JSON of every error answer: {"error": {"code", "message"}}.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    game.Code `json:"code"`
	Message string    `json:"message"`
	Game    string    `json:"game,omitempty"` // the game the refusal is about (game.Error.Game)
}

// statuses is the REST API's table from an error code to the HTTP status of
// its answer.
var statuses = map[game.Code]int{
	game.BadRequest:       http.StatusBadRequest,
	game.BadCode:          http.StatusBadRequest,
	game.Unauthorized:     http.StatusUnauthorized,
	game.Forbidden:        http.StatusForbidden,
	game.NotFound:         http.StatusNotFound,
	game.IllegalMove:      http.StatusUnprocessableEntity,
	game.TooLate:          http.StatusConflict,
	game.NotYourTurn:      http.StatusConflict,
	game.GameOver:         http.StatusConflict,
	game.Conflict:         http.StatusConflict,
	game.RateLimited:      http.StatusTooManyRequests,
	game.Unavailable:      http.StatusServiceUnavailable,
	game.TooLarge:         http.StatusRequestEntityTooLarge,
	game.MethodNotAllowed: http.StatusMethodNotAllowed,
	game.Internal:         http.StatusInternalServerError,
	game.Expired:          http.StatusGone,
	game.TooLong:          http.StatusConflict,
}

// statusOf returns the HTTP status of an answer carrying the code (500 for
// an unknown code).
func statusOf(c game.Code) int {
	if st, ok := statuses[c]; ok {
		return st
	}
	return http.StatusInternalServerError
}

// error answers with the domain error of err, with the status of its code
// (statuses); only internal errors are logged with their detail.
func (s *server) error(w http.ResponseWriter, r *http.Request, err error) {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		err = game.Errorf(game.TooLarge, "the request body is larger than %d bytes", mbe.Limit)
	}
	e := protocol.AsError(err)
	switch e.Code {
	case game.Internal:
		s.log.Error("httpapi: internal error", "method", r.Method, "path", r.URL.Path,
			"request_id", middleware.GetReqID(r.Context()), "err", err)
	case game.Unavailable:
		s.log.Warn("httpapi: unavailable", "method", r.Method, "path", r.URL.Path,
			"request_id", middleware.GetReqID(r.Context()), "err", err)
	}
	if (e.Code == game.RateLimited || e.Code == game.Unavailable) && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, statusOf(e.Code), errorBody{errorDetail{Code: e.Code, Message: e.Msg, Game: e.Game}})
}

// writeJSON writes v as a JSON answer.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":{"code":"internal","message":"internal error"}}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func (s *server) notFound(w http.ResponseWriter, r *http.Request) {
	if s.static != nil && !strings.HasPrefix(r.URL.Path, "/api/") {
		s.static.ServeHTTP(w, r)
		return
	}
	s.error(w, r, game.Errorf(game.NotFound, "no such resource: %s", input.Quote(r.URL.Path)))
}

func (s *server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	s.error(w, r, game.Errorf(game.MethodNotAllowed, "%s is not allowed here", input.Quote(r.Method)))
}
