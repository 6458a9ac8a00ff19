package httpapi

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"golang.org/x/time/rate"

	"dsol/internal/game"
)

type ctxKey int

const (
	clientKey ctxKey = iota // *client
	playerKey               // store.Player
)

// peer is what the server knows of the other end of a request.
type peer struct {
	ip     netip.Addr
	secure bool // TLS to the server or, by a trusted proxy, to the proxy
}

func clientOf(ctx context.Context) *peer {
	c, _ := ctx.Value(clientKey).(*peer)
	if c == nil {
		return &peer{}
	}
	return c
}

// clientIP finds the client's address: the peer's, or the nearest untrusted
// address of X-Forwarded-For when the peer is a trusted proxy.
func (s *server) clientIP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &peer{secure: r.TLS != nil}
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		c.ip, _ = netip.ParseAddr(host)
		c.ip = c.ip.Unmap()
		if s.trusted(c.ip) {
			if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
				hops := strings.Split(strings.Join(xff, ","), ",")
				for i := len(hops) - 1; i >= 0; i-- {
					a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
					if err != nil {
						break
					}
					c.ip = a.Unmap()
					if !s.trusted(c.ip) {
						break
					}
				}
			}
			if p := r.Header.Get("X-Forwarded-Proto"); p != "" {
				c.secure = strings.EqualFold(p, "https")
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientKey, c)))
	})
}

// contentSecurityPolicy lets a page load only the server's own scripts,
// styles, images and fonts and connect only to its own origin; in Chromium
// and Firefox 'self' covers the ws: and wss: URLs of that origin too. No
// inline script or style, no plugins, no framing, no <base>.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

// permissionsPolicy denies the powerful features the client never uses. The
// clipboard and sharing (the copy buttons) keep their same-origin default.
const permissionsPolicy = "accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), " +
	"hid=(), magnetometer=(), microphone=(), midi=(), payment=(), serial=(), usb=()"

// headers sets the browser security headers of every response: pages, files,
// API answers and errors alike. Referrer-Policy is no-referrer: page URLs hold
// game ids and race invites, and the client needs no Referer (its fetch and
// WebSocket requests keep their Origin header, which the cross-origin checks
// read, under any referrer policy). Over HTTPS (directly, or as a trusted
// proxy says) Strict-Transport-Security keeps the browser on HTTPS for a
// year.
func (s *server) headers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Permissions-Policy", permissionsPolicy)
		if clientOf(r.Context()).secure {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		next.ServeHTTP(w, r)
	})
}

func (s *server) trusted(a netip.Addr) bool {
	if !a.IsValid() {
		return false
	}
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// observe records every request in the metrics by its chi route pattern.
func (s *server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		defer func() {
			route := ""
			if rc := chi.RouteContext(r.Context()); rc != nil {
				route = rc.RoutePattern()
			}
			status := ww.Status()
			if status == 0 {
				status = http.StatusOK
			}
			s.metrics.ObserveHTTP(route, r.Method, status, time.Since(start))
		}()
		next.ServeHTTP(ww, r)
	})
}

// limitBody bounds the request body.
func (s *server) limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > s.cfg.MaxBodyBytes {
			s.error(w, r, game.Errorf(game.TooLarge, "the request body is larger than %d bytes", s.cfg.MaxBodyBytes))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
		next.ServeHTTP(w, r)
	})
}

// crossOrigin refuses cross-site unsafe requests that rely on the cookie.
// Requests with an Authorization header cannot be forged by another site (a
// browser adds no such header by itself), so they pass.
func (s *server) crossOrigin(next http.Handler) http.Handler {
	protected := s.csrf.Handler(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			next.ServeHTTP(w, r)
			return
		}
		protected.ServeHTTP(w, r)
	})
}

// rateLimit applies the write token bucket of the player (or of the client
// IP before authentication).
func (s *server) rateLimit(next http.Handler) http.Handler {
	return s.limit(s.limits, "too many requests; slow down", next)
}

// hintLimit applies the player's token bucket of hint requests.
func (s *server) hintLimit(next http.Handler) http.Handler {
	return s.limit(s.hints, "too many hints asked; ask again in a moment", next)
}

// checkLimit is hintLimit for turning the live check on: the same bucket.
func (s *server) checkLimit(next http.Handler) http.Handler {
	return s.limit(s.hints, "too many hints and checks asked; ask again in a moment", next)
}

// limit answers rate_limited with msg once the caller's bucket of l is
// empty: the player's, or the client IP's before authentication.
func (s *server) limit(l *limiter, msg string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := "ip:" + clientOf(r.Context()).ip.String()
		if p, ok := playerOf(r.Context()); ok {
			key = "p:" + p.ID
		}
		if !l.allow(key, s.clock()) {
			s.error(w, r, game.Errorf(game.RateLimited, "%s", msg))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// limiter holds one token bucket per key, forgetting idle keys.
type limiter struct {
	rate  rate.Limit
	burst int
	idle  time.Duration // how long an unused bucket is kept

	mu    sync.Mutex
	keys  map[string]*bucket
	sweep time.Time
}

type bucket struct {
	lim  *rate.Limiter
	last time.Time
}

// limiterIdle is how long an unused bucket is kept at least; a bucket that
// takes longer to fill up again is kept until it has.
const limiterIdle = 10 * time.Minute

func newLimiter(perSecond float64, burst int) *limiter {
	idle := limiterIdle
	if full := time.Duration(float64(burst) / perSecond * float64(time.Second)); full > idle {
		idle = full
	}
	return &limiter{rate: rate.Limit(perSecond), burst: burst, idle: idle, keys: make(map[string]*bucket)}
}

func (l *limiter) allow(key string, now time.Time) bool {
	_, wait := l.take(key, now)
	return wait == 0
}

// take takes a token of key's bucket at now and returns its reservation
// (cancel it to give the token back), or, when the bucket is empty, takes
// none and returns how long until it has one.
func (l *limiter) take(key string, now time.Time) (*rate.Reservation, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.sweep) > l.idle {
		for k, b := range l.keys {
			if now.Sub(b.last) > l.idle {
				delete(l.keys, k)
			}
		}
		l.sweep = now
	}
	b, ok := l.keys[key]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(l.rate, l.burst)}
		l.keys[key] = b
	}
	b.last = now
	res := b.lim.ReserveN(now, 1)
	if wait := res.DelayFrom(now); wait > 0 {
		res.CancelAt(now)
		return nil, wait
	}
	return res, 0
}
