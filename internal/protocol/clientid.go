package protocol

import "unicode"

// MaxClientID bounds a client action id (Command.ClientID), over REST and
// WebSocket alike.
const MaxClientID = 64

// ValidClientID reports whether id is a client action id: 1 to MaxClientID
// printable ASCII characters.
func ValidClientID(id string) bool {
	if len(id) < 1 || len(id) > MaxClientID {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] > unicode.MaxASCII || !unicode.IsPrint(rune(id[i])) {
			return false
		}
	}
	return true
}
