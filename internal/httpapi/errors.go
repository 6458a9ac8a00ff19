package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5/middleware"

	"dsol/internal/input"
	"dsol/internal/table"
)

// errorBody is the JSON of every error answer: {"error": {"code", "message"}}.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    table.Code `json:"code"`
	Message string     `json:"message"`
}

// error answers with the domain error of err. The status comes from the one
// table in package table; only internal errors are logged with their detail.
func (s *server) error(w http.ResponseWriter, r *http.Request, err error) {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		err = table.Errorf(table.TooLarge, "the request body is larger than %d bytes", mbe.Limit)
	}
	e := table.AsError(err)
	switch e.Code {
	case table.Internal:
		s.log.Error("httpapi: internal error", "method", r.Method, "path", r.URL.Path,
			"request_id", middleware.GetReqID(r.Context()), "err", err)
	case table.Unavailable:
		s.log.Warn("httpapi: unavailable", "method", r.Method, "path", r.URL.Path,
			"request_id", middleware.GetReqID(r.Context()), "err", err)
	}
	if (e.Code == table.RateLimited || e.Code == table.Unavailable) && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, e.Code.HTTPStatus(), errorBody{errorDetail{Code: e.Code, Message: e.Msg}})
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
	s.error(w, r, table.Errorf(table.NotFound, "no such resource: %s", input.Quote(r.URL.Path)))
}

func (s *server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	s.error(w, r, table.Errorf(table.MethodNotAllowed, "%s is not allowed here", input.Quote(r.Method)))
}
