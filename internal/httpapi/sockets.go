package httpapi

import (
	"net/http"

	"dsol/internal/game"
	"dsol/internal/ws"
)

// PlayerID returns the id of the player the server's authentication found
// for a request: the ws.Deps.Player of the WebSocket handler, whose route
// runs behind that authentication.
func PlayerID(r *http.Request) (string, error) {
	p, ok := playerOf(r.Context())
	if !ok {
		return "", game.Errorf(game.Unauthorized, "sign in first: POST /api/v1/players gives a token")
	}
	return p.ID, nil
}

// socketHandler is the WebSocket handler of Deps.Sockets or, without one, a
// handler with the default limits that accepts the AllowedOrigins (dsol
// serve passes its own, to close the sockets on shutdown).
func (s *server) socketHandler() http.Handler {
	if s.sockets != nil {
		return s.sockets
	}
	return ws.NewHandler(ws.Deps{Tables: s.tables, Player: PlayerID, Logger: s.log,
		Metrics: s.metrics, Clock: s.clock, Config: ws.Config{OriginPatterns: s.cfg.AllowedOrigins}})
}
