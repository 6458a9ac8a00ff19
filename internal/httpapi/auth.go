package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"dsol/internal/game"
	"dsol/internal/store"
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

// tokenBytes is the length of a bearer token before encoding.
const tokenBytes = 32

// cookieMaxAge keeps the session for a year.
const cookieMaxAge = 365 * 24 * time.Hour

func playerOf(ctx context.Context) (store.Player, bool) {
	p, ok := ctx.Value(playerKey).(store.Player)
	return p, ok
}

// hashToken returns the stored form of a token: its SHA-256.
func hashToken(tok string) []byte {
	h := sha256.Sum256([]byte(tok))
	return h[:]
}

// newToken returns a new bearer token (tokenBytes random bytes) and the
// hash that is stored of it.
func (s *server) newToken() (tok string, hash []byte, err error) {
	tok, err = s.randomString(tokenBytes)
	if err != nil {
		return "", nil, err
	}
	return tok, hashToken(tok), nil
}

// signedIn answers a sign-in (a new player, a redeemed transfer code): the
// session cookie of tok and 201 {"id", "name", "token"}, the token shown once.
func (s *server) signedIn(w http.ResponseWriter, r *http.Request, p store.Player, tok string) {
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

// randomString returns n random bytes from the server's source, base64url.
func (s *server) randomString(n int) (string, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(s.random, b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
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
		h := hashToken(tok)
		now := s.clock()
		p, ok := s.auth.get(h, now)
		if !ok {
			var err error
			p, err = s.store.PlayerByTokenHash(r.Context(), h)
			if errors.Is(err, store.ErrNotFound) {
				s.error(w, r, game.Errorf(game.Unauthorized, "unknown token"))
				return
			}
			if err != nil {
				s.error(w, r, err)
				return
			}
			s.auth.put(h, p, now)
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
// and the session cookie.
func (s *server) createPlayer(w http.ResponseWriter, r *http.Request) {
	b, err := readBody(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	name, given, err := decodeName(b, false)
	if err != nil {
		s.error(w, r, err)
		return
	}
	id, err := s.randomString(12)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if !given {
		name = "Player " + id[:4]
	}
	tok, hash, err := s.newToken()
	if err != nil {
		s.error(w, r, err)
		return
	}
	p := store.Player{ID: id, Name: name, TokenHash: hash, CreatedAt: s.clock()}
	if err := s.store.CreatePlayer(r.Context(), p); err != nil {
		s.error(w, r, err)
		return
	}
	s.signedIn(w, r, p, tok)
}

// meJSON is GET /api/v1/me: the player and their rating, rounded
// (1500 and 350 for a player never rated).
type meJSON struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	Rating          int    `json:"rating"`
	RatingDeviation int    `json:"ratingDeviation"`
}

// getMe is GET /api/v1/me.
func (s *server) getMe(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	rt, err := s.store.Rating(r.Context(), p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, meJSON{ID: p.ID, Name: p.Name,
		Rating: game.RoundRating(rt.Rating), RatingDeviation: game.RoundRating(rt.Deviation)})
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
	if err := s.store.RenamePlayer(r.Context(), p.ID, name); err != nil {
		s.error(w, r, err)
		return
	}
	s.auth.rename(p.ID, name)
	writeJSON(w, http.StatusOK, playerJSON{ID: p.ID, Name: name})
}
