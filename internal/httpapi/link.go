package httpapi

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/skip2/go-qrcode"

	"dsol/internal/game"
	"dsol/internal/players"
)

// Guessing transfer codes. A guess is looked up by its hash, so a wrong one
// names no target: every outstanding code is the target of every guess.
// Two token buckets bound wrong guesses (an attempt takes a token, a right
// one gives it back): linkPerAddr a minute per client address, and
// linkPerNode a minute from all addresses together, which is therefore also
// the bound for any one code. At 60 bits, a code that lives 10 minutes
// meets at most 10 × linkPerNode guesses per node: the odds that they find
// it are below 10 × 60 / 2^60 ≈ 5e-16 per node. The price: someone guessing
// from many addresses can use up the shared bucket and hold up everyone's
// codes for a minute at a time (the owner then waits or asks again).
const (
	linkPerAddr = 5
	linkPerNode = 60
)

// linkJSON is the answer of POST /api/v1/me/link: the code (shown once),
// when it expires, the address that signs in with it and that address as a
// QR code (an SVG document).
type linkJSON struct {
	Code      string    `json:"code"`
	Expires   time.Time `json:"expires"`
	ExpiresIn int       `json:"expiresIn"` // seconds
	URL       string    `json:"url"`
	QR        string    `json:"qr"`
}

// createLink is POST /api/v1/me/link: a new transfer code for the caller,
// replacing the one they had. The QR code is made here, the only time the
// code is known; the address it holds carries the code in its fragment
// (/#link=…), which browsers never send to a server, so no access log
// records it.
func (s *server) createLink(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	shown, expires, err := s.players.NewLink(r.Context(), p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	scheme := "http"
	if clientOf(r.Context()).secure {
		scheme = "https"
	}
	url := scheme + "://" + r.Host + "/#link=" + shown
	qr, err := qrSVG(url)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, linkJSON{Code: shown, Expires: expires,
		ExpiresIn: int(players.LinkTTL / time.Second), URL: url, QR: qr})
}

// redeemLink is POST /api/v1/link {"code"}: signs this device in as the
// player of the transfer code, with a new token and the session cookie,
// answered like POST /api/v1/players. 404 for no such code, 410 expired
// for one that expired or was used; 429 past the guess limits.
func (s *server) redeemLink(w http.ResponseWriter, r *http.Request) {
	b, err := readBody(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	code, err := decodeLinkCode(b)
	if err != nil {
		s.error(w, r, err)
		return
	}
	now := s.clock()
	addr, wait := s.linkGuesses.take(clientOf(r.Context()).ip.String(), now)
	if wait > 0 {
		s.tooManyGuesses(w, r, wait)
		return
	}
	all, wait := s.linkAll.take("", now)
	if wait > 0 {
		addr.CancelAt(now)
		s.tooManyGuesses(w, r, wait)
		return
	}
	id, tok, err := s.players.Redeem(r.Context(), code)
	if err != nil {
		s.error(w, r, err)
		return
	}
	addr.CancelAt(now)
	all.CancelAt(now)
	p, err := s.players.Player(r.Context(), id)
	if err != nil {
		s.error(w, r, err)
		return
	}
	s.signedIn(w, r, p, tok)
}

// tooManyGuesses answers 429 with the seconds until the next guess.
func (s *server) tooManyGuesses(w http.ResponseWriter, r *http.Request, wait time.Duration) {
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
	s.error(w, r, game.Errorf(game.RateLimited, "too many wrong transfer codes; wait a minute"))
}

// qrSVG draws text as a QR code (error correction M, the quiet zone
// included), one path of unit squares in an SVG document.
func qrSVG(text string) (string, error) {
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return "", fmt.Errorf("httpapi: qr code: %w", err)
	}
	bits := q.Bitmap()
	n := len(bits)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges">`, n, n)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, n, n)
	for y, row := range bits {
		for x := 0; x < n; {
			if !row[x] {
				x++
				continue
			}
			run := 1
			for x+run < n && row[x+run] {
				run++
			}
			fmt.Fprintf(&b, "M%d %dh%dv1h-%dz", x, y, run, run)
			x += run
		}
	}
	b.WriteString(`"/></svg>`)
	return b.String(), nil
}
