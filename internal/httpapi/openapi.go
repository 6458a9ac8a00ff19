package httpapi

import (
	_ "embed"
	"net/http"
)

// openAPIDoc is the OpenAPI 3.1 description of the API; a test keeps it in
// step with routes.go.
//
//go:embed openapi.json
var openAPIDoc []byte

// openAPI is GET /api/v1/openapi.json.
func (s *server) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(openAPIDoc)
}
