package httpapi

import (
	"net/http"

	"dsol/internal/game"
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

// TokenHash returns the hash of the token the server's authentication signed
// a request in with: the ws.Deps.Token of the socket handlers, whose
// sockets close when it is revoked.
func TokenHash(r *http.Request) []byte {
	p, _ := playerOf(r.Context())
	return p.TokenHash
}

// revoke closes the player's sockets on this node (game, race, lobby and
// match) opened with token, or all of them for a nil token: after signing
// out one device, every device, or deleting the player. The other nodes'
// close when they check the token again (players.Service.CheckToken).
func (s *server) revoke(player string, token []byte) {
	for _, h := range []Socket{s.sockets.Games, s.sockets.Lobby, s.sockets.Match} {
		if h != nil {
			h.Revoke(player, token)
		}
	}
}
