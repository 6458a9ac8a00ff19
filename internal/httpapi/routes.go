package httpapi

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"dsol/internal/game"
)

// routes lists every route of the server.
func (s *server) routes() chi.Router {
	r := chi.NewRouter()
	r.Use(middleware.RequestID, s.clientIP, s.headers, s.observe, middleware.Recoverer)
	// The web client is served for every path no route matches (JSON 404s
	// under /api/ and when there is no client).
	r.NotFound(s.notFound)
	r.MethodNotAllowed(s.methodNotAllowed)

	// Operators: no auth.
	r.Get("/healthz", s.healthz)
	r.Get("/readyz", s.readyz)
	r.Method(http.MethodGet, "/metrics", s.metrics.Handler())
	r.Get("/node", s.node)

	// REST: a timeout, a body limit and cross-origin protection on every
	// route; auth on all but player creation, signing in with a transfer
	// code and the API document; a rate limit on writes.
	r.Group(func(r chi.Router) {
		r.Use(middleware.Timeout(s.cfg.RequestTimeout), s.limitBody, s.crossOrigin)
		r.Get("/api/v1/openapi.json", s.openAPI)
		r.With(s.rateLimit).Post("/api/v1/players", s.createPlayer)
		r.With(s.rateLimit).Post("/api/v1/link", s.redeemLink)
		r.Group(func(r chi.Router) {
			r.Use(s.authenticate)
			r.Get("/api/v1/me", s.getMe)
			r.With(s.rateLimit).Patch("/api/v1/me", s.patchMe)
			r.With(s.rateLimit).Delete("/api/v1/me/renamed", s.seenRenamed)
			r.Get("/api/v1/me/stats", s.getStats)
			r.With(s.rateLimit).Post("/api/v1/me/stats/reset", s.resetStats)
			r.With(s.rateLimit).Delete("/api/v1/me", s.deleteMe)
			r.With(s.rateLimit).Post("/api/v1/me/link", s.createLink)
			r.With(s.rateLimit).Post("/api/v1/me/logout", s.logout)
			r.With(s.rateLimit).Post("/api/v1/me/logout-all", s.logoutAll)
			r.Get("/api/v1/me/export", s.export)
			r.Get("/api/v1/me/blocks", s.listBlocks)
			r.With(s.rateLimit).Post("/api/v1/players/{id}/block", s.block)
			r.With(s.rateLimit).Delete("/api/v1/players/{id}/block", s.unblock)
			r.Get("/api/v1/games", s.listGames)
			r.With(s.rateLimit).Post("/api/v1/games", s.createGame)
			r.Get("/api/v1/games/{id}", s.getGame)
			r.With(s.hintLimit).Get("/api/v1/games/{id}/hint", s.getHint)
			r.With(s.checkLimit).Post("/api/v1/games/{id}/check", s.postCheck)
			r.With(s.rateLimit).Get("/api/v1/games/{id}/replay", s.replay)
			r.With(s.rateLimit).Post("/api/v1/games/{id}/actions", s.postAction)
			r.Get("/api/v1/codes/{code}", s.getCode)
			r.With(s.rateLimit).Post("/api/v1/races", s.createRace)
			r.With(s.rateLimit).Post("/api/v1/races/{id}/join", s.joinRace)
			r.With(s.rateLimit).Post("/api/v1/races/{id}/rematch", s.rematch)
			r.With(s.rateLimit).Post("/api/v1/races/{id}/decline", s.declineRematch)
			r.With(s.rateLimit).Post("/api/v1/races/{id}/cancel", s.cancelRace)
			r.Get("/api/v1/daily", s.getDaily)
			r.Get("/api/v1/daily/{day}", s.getDailyDay)
			r.With(s.rateLimit).Post("/api/v1/daily/{mode}", s.startDaily)
			r.Get("/api/v1/daily/{day}/{mode}/leaderboard", s.leaderboard)
			r.Get("/api/v1/lobby", s.lobby)
			r.With(s.rateLimit).Post("/api/v1/match", s.match)
			r.With(s.rateLimit).Delete("/api/v1/match", s.unmatch)
			r.Get("/api/v1/arenas", s.listArenas)
			r.With(s.rateLimit).Post("/api/v1/arenas", s.createArena)
			r.Get("/api/v1/arenas/{id}", s.getArena)
			r.Get("/api/v1/arenas/{id}/races", s.arenaRaces)
			r.With(s.rateLimit).Post("/api/v1/arenas/{id}/join", s.joinArena)
			r.With(s.rateLimit).Post("/api/v1/arenas/{id}/leave", s.leaveArena)
		})
	})

	// Long-lived routes: the WebSocket of a game (solo or race; the race path
	// is an alias) and the lobby's, authenticated like every call and never under the REST
	// timeout. The ws handlers check the Origin and their own limits.
	r.Group(func(r chi.Router) {
		r.Use(s.authenticate)
		for _, route := range []struct {
			paths []string
			h     Socket
		}{
			{[]string{"/api/v1/games/{id}/ws", "/api/v1/races/{id}/ws"}, s.sockets.Games},
			{[]string{"/api/v1/lobby/ws"}, s.sockets.Lobby},
			{[]string{"/api/v1/match/ws"}, s.sockets.Match},
			{[]string{"/api/v1/arenas/{id}/ws"}, s.sockets.Arena},
		} {
			var h http.Handler = route.h
			if route.h == nil {
				h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					s.error(w, r, game.Errorf(game.NotFound, "no sockets are served here"))
				})
			}
			for _, p := range route.paths {
				r.Method(http.MethodGet, p, h)
			}
		}
	})

	return r
}
