package protocol

import (
	"net/http"

	"dsol/internal/game"
)

// Close codes of a socket besides the error table's.
const (
	// ClosePolicy (1008) ends a session that keeps sending too many or
	// malformed messages, once the answers of what it sent before are
	// written.
	ClosePolicy = 1008
	// CloseRestart (1012) ends every session when the server shuts down, and
	// a session whose game could not be followed any more: reconnect (with
	// ?since=) to continue.
	CloseRestart = 1012
	// CloseInvalidData (1007) ends a session whose client sent a text frame
	// that is not UTF-8.
	CloseInvalidData = 1007
	// CloseTooBig (1009) ends a session whose client sent a frame over the
	// read limit.
	CloseTooBig = 1009
	// CloseSignedOut (4401, the close code of unauthorized) ends every socket
	// of a token that no longer signs its player in: signed out on this
	// device, everywhere, or the player deleted. Do not reconnect with that
	// token.
	CloseSignedOut = 4401
)

// closeCodes is the table from an error code to the close code of a socket
// closed because of the error. Application close codes are 4000
// + the HTTP status the REST API answers with; the standard codes are used
// where RFC 6455 has one (1009 too big, 1011 internal, 1013 try again
// later).
var closeCodes = map[game.Code]int{
	game.BadRequest:       4400,
	game.BadCode:          4400,
	game.Unauthorized:     4401,
	game.Forbidden:        4403,
	game.NotFound:         4404,
	game.IllegalMove:      4422,
	game.TooLate:          4409,
	game.NotYourTurn:      4409,
	game.GameOver:         4409,
	game.Conflict:         4409,
	game.RateLimited:      4429,
	game.Unavailable:      1013,
	game.TooLarge:         1009,
	game.MethodNotAllowed: 4405,
	game.Internal:         1011,
	game.Expired:          4410,
	game.TooLong:          4409,
}

// CloseCode returns the close code of a socket closed because of an error
// with code c (1011 for an unknown code).
func CloseCode(c game.Code) int {
	if cc, ok := closeCodes[c]; ok {
		return cc
	}
	return 1011
}

// RefusalStatus is the HTTP status of a socket's upgrade refused with an
// error of code c, as the REST API answers it: the status an application
// close code carries, and for the standard close codes the statuses they
// stand for.
func RefusalStatus(c game.Code) int {
	switch cc := CloseCode(c); {
	case cc >= 4000:
		return cc - 4000
	case cc == 1009:
		return http.StatusRequestEntityTooLarge
	case cc == 1013:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}
