package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"dsol/internal/game"
	"dsol/internal/table"
)

// matchWaiting is the answer of POST /api/v1/match while the player waits:
// follow GET /api/v1/match/ws; after botAfterSeconds the client offers a
// race against the computer instead.
type matchWaiting struct {
	Status          string `json:"status"` // "waiting"
	BotAfterSeconds int    `json:"botAfterSeconds"`
}

// match is POST /api/v1/match: quick match. The body takes the options of
// POST /api/v1/races (draw, redeal, decks, turns, first, soloOutBonus,
// series, turnSeconds), checked the same way; a code (a quick match is
// always dealt by the server) and bot are refused. The player is paired
// with the closest-rated player waiting for the same options (table's
// match.go tells the window), never with one they blocked or were blocked
// by: 201 with the new race, the caller in seat 2,
// the opponent told on their match socket; or 202 {"status": "waiting"}.
func (s *server) match(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	spec, err := raceBody(r)
	switch {
	case err != nil:
	case !spec.random:
		err = game.Errorf(game.BadRequest, "a quick match is dealt by the server: send draw, redeal and decks, not a code")
	case spec.opts.Bot != "":
		err = game.Errorf(game.BadRequest, "a quick match is against a person: create a race with bot to play the computer")
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	rt, err := s.store.Rating(r.Context(), p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	avoid, err := s.blocksOf(r.Context(), p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	key, err := json.Marshal(spec.opts)
	if err != nil {
		s.error(w, r, err)
		return
	}
	c := spec.code
	id, err := s.tables.Match(r.Context(), table.MatchEntry{Player: p.ID, Rating: rt.Rating, Options: spec, Avoid: avoid,
		Key: fmt.Sprintf("D%d single=%v mirrored=%v %s", c.Draw, c.Single, c.Mirrored, key)})
	if err != nil {
		s.error(w, r, err)
		return
	}
	if id == "" {
		writeJSON(w, http.StatusAccepted, matchWaiting{Status: "waiting", BotAfterSeconds: int(s.cfg.MatchBotAfter.Seconds())})
		return
	}
	s.answerRace(w, r, http.StatusCreated, id, 2, "")
}

// unmatch is DELETE /api/v1/match: the player leaves the queue (a player
// not in it is answered the same), {"status": "idle"}.
func (s *server) unmatch(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	_ = s.tables.Unmatch(p.ID)
	writeJSON(w, http.StatusOK, struct {
		Status string `json:"status"`
	}{"idle"})
}

// pairRace creates the race of two paired players (table.MatchPair): a
// server-dealt race of the options they asked for, both seated and
// playing, private, a series of its own.
func (s *server) pairRace(ctx context.Context, first, second table.MatchEntry) (string, error) {
	spec, ok := first.Options.(raceSpec)
	if !ok {
		return "", fmt.Errorf("httpapi: quick match options of type %T", first.Options)
	}
	code, o := spec.code, spec.opts
	if err := s.secretDeal(&code); err != nil {
		return "", err
	}
	if err := s.drawFirst(&o); err != nil {
		return "", err
	}
	id, err := s.randomString(12)
	if err != nil {
		return "", err
	}
	g, err := s.newRace(id, code, o, [2]string{first.Player, second.Player}, false, nil, id, 1)
	if err != nil {
		return "", err
	}
	if err := s.store.CreateGame(ctx, g); err != nil {
		return "", err
	}
	return id, nil
}
