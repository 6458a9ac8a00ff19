package httpapi

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"dsol/internal/game"
	"dsol/internal/players"
)

// The session cookie holds the bearer token. Over HTTPS it is
// SecureCookieName: Secure, and by its __Host- prefix bound to this host and
// path / (no subdomain or plain-HTTP page can set or shadow it). Over plain
// HTTP (a local server) it is CookieName. Both are read; a request over HTTPS
// that signs in with CookieName gets the cookie reissued as SecureCookieName.
const (
	CookieName       = "dsol_session"
	SecureCookieName = "__Host-dsol_session"
)

// cookieMaxAge keeps the session for a year.
const cookieMaxAge = 365 * 24 * time.Hour

// playerOf returns the player the request signed in as (authenticate).
func playerOf(ctx context.Context) (players.Player, bool) {
	p, ok := ctx.Value(playerKey).(players.Player)
	return p, ok
}

// signedIn answers a sign-in (a new player, a redeemed transfer code): the
// session cookie of tok and 201 {"id", "name", "token"}, the token shown once.
func (s *server) signedIn(w http.ResponseWriter, r *http.Request, p players.Player, tok string) {
	s.setSession(w, r, tok)
	writeJSON(w, http.StatusCreated, playerJSON{ID: p.ID, Name: p.Name, Token: tok})
}

// clearSession expires the session cookie under both names.
func (s *server) clearSession(w http.ResponseWriter, r *http.Request) {
	secure := clientOf(r.Context()).secure
	for _, name := range []string{CookieName, SecureCookieName} {
		if name == SecureCookieName && !secure {
			continue // a __Host- cookie is set (and cleared) over HTTPS only
		}
		http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
			SameSite: http.SameSiteLaxMode, Secure: secure})
	}
}

// authenticate finds the player of a Bearer token, or else of the session
// cookie (either name; the old one is reissued over HTTPS); no or a wrong
// credential is 401. The WebSocket routes sign in here too.
func (s *server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok, reissue := "", false
		if h := r.Header.Get("Authorization"); h != "" {
			scheme, t, ok := strings.Cut(h, " ")
			if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(t) == "" {
				s.error(w, r, game.Errorf(game.Unauthorized, "the Authorization header must be \"Bearer <token>\""))
				return
			}
			tok = strings.TrimSpace(t)
		} else if c, err := r.Cookie(SecureCookieName); err == nil {
			tok = c.Value
		} else if c, err := r.Cookie(CookieName); err == nil {
			tok = c.Value
			reissue = clientOf(r.Context()).secure
		}
		if tok == "" {
			s.error(w, r, game.Errorf(game.Unauthorized, "sign in first: POST /api/v1/players gives a token"))
			return
		}
		p, err := s.players.ByToken(r.Context(), tok)
		if err != nil {
			s.error(w, r, err)
			return
		}
		if reissue {
			s.setSession(w, r, tok)
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), playerKey, p)))
	})
}

// setSession sets the session cookie of tok: SecureCookieName over HTTPS,
// where a CookieName the request carried is expired, else CookieName.
func (s *server) setSession(w http.ResponseWriter, r *http.Request, tok string) {
	secure := clientOf(r.Context()).secure
	c := &http.Cookie{
		Name:     CookieName,
		Value:    tok,
		Path:     "/",
		MaxAge:   int(cookieMaxAge / time.Second),
		HttpOnly: true,
		SameSite: http.SameSiteLaxMode,
		Secure:   secure,
	}
	if secure {
		if _, err := r.Cookie(CookieName); err == nil {
			http.SetCookie(w, &http.Cookie{Name: CookieName, Path: "/", MaxAge: -1, HttpOnly: true,
				SameSite: http.SameSiteLaxMode, Secure: true})
		}
		c.Name = SecureCookieName
	}
	http.SetCookie(w, c)
}

type playerJSON struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Token string `json:"token,omitempty"`
}

// createPlayer is POST /api/v1/players: a new player, its token (shown once)
// and the session cookie. Beyond Config.AccountsPerHour players from the
// client's address (or IPv6 /64) in an hour, 429 with Retry-After; a
// request refused for its name takes nothing from that bound.
func (s *server) createPlayer(w http.ResponseWriter, r *http.Request) {
	b, err := readBody(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	name, _, err := decodeName(b, false) // none: the service names the player
	if err != nil {
		s.error(w, r, err)
		return
	}
	now := s.clock()
	var grant *rate.Reservation
	if s.accounts != nil {
		var wait time.Duration
		if grant, wait = s.accounts.take(accountKey(clientOf(r.Context()).ip), now); wait > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
			s.error(w, r, game.Errorf(game.RateLimited, "too many new players from this network: at most %d an hour; try again in %s, or sign in on this device with a transfer code",
				s.cfg.AccountsPerHour, waitText(wait)))
			return
		}
	}
	p, tok, err := s.players.Create(r.Context(), name)
	if err != nil {
		if grant != nil {
			grant.CancelAt(now)
		}
		s.error(w, r, err)
		return
	}
	s.signedIn(w, r, p, tok)
}

// DefaultAccountsPerHour is the default of Config.AccountsPerHour: well
// above what a household or a classroom behind one address creates in an
// hour, far below what a script would.
const DefaultAccountsPerHour = 30

// accountKey is the bucket of the players created from a client address:
// the address itself for IPv4, its /64 for IPv6 (a host picks its
// addresses within a /64 as it likes).
func accountKey(ip netip.Addr) string {
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// waitText says how long a wait is, for a person: seconds under a minute,
// else whole minutes, rounded up.
func waitText(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%d seconds", int(math.Ceil(d.Seconds())))
	}
	m := int(math.Ceil(d.Minutes()))
	if m == 1 {
		return "a minute"
	}
	return fmt.Sprintf("%d minutes", m)
}

// meJSON is GET /api/v1/me: the player and their rating, rounded
// (1500 and 350 for a player never rated), provisional while its deviation
// is over rating.Provisional (shown with a question mark), and the notice
// of the server's renaming of them while they have not seen it.
type meJSON struct {
	ID              string       `json:"id"`
	Name            string       `json:"name"`
	Rating          int          `json:"rating"`
	RatingDeviation int          `json:"ratingDeviation"`
	Provisional     bool         `json:"provisional"`
	Renamed         *renamedJSON `json:"renamed,omitempty"`
}

// renamedJSON is the notice that the server changed the player's name
// because the naming rules refused it: the name they had, and when.
type renamedJSON struct {
	From string    `json:"from"`
	At   time.Time `json:"at"`
}

// getMe is GET /api/v1/me. The name is read afresh (not from the sign-in
// cache), with the notice of a renaming. The notice is read first: the
// server's renaming stores the new name and the notice at once, so a notice
// seen comes with the new name, never with the name it replaced.
func (s *server) getMe(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	ctx := r.Context()
	rn, renamed, err := s.players.Renamed(ctx, p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	p, err = s.players.Player(ctx, p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	rt, err := s.players.Rating(ctx, p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	me := meJSON{ID: p.ID, Name: p.Name, Rating: game.RoundRating(rt.Rating), RatingDeviation: game.RoundRating(rt.Deviation),
		Provisional: rt.Provisional()}
	if renamed {
		me.Renamed = &renamedJSON{From: rn.From, At: rn.At}
	}
	writeJSON(w, http.StatusOK, me)
}

// seenRenamed is DELETE /api/v1/me/renamed: the player has seen the notice
// of the server's renaming, which GET /api/v1/me no longer carries. 204,
// with or without a notice.
func (s *server) seenRenamed(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	if err := s.players.ClearRenamed(r.Context(), p.ID); err != nil {
		s.error(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// patchMe is PATCH /api/v1/me {"name"}.
func (s *server) patchMe(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	b, err := readBody(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	name, _, err := decodeName(b, true)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if err := s.players.Rename(r.Context(), p.ID, name); err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, playerJSON{ID: p.ID, Name: name})
}
