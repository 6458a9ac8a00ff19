package players

import (
	"context"
	"errors"

	"dsol/internal/game"
	"dsol/internal/store"
)

// Renamed is the notice of the server's renaming of a player.
type Renamed = store.Renamed

// CheckName refuses, bad_request, a name that the naming rules (package
// names: the deny-list and the reserved names) do not let a player take.
func (s *Service) CheckName(name string) error {
	if why := s.names.Check(name); why != "" {
		return game.Errorf(game.BadRequest, "%s", why)
	}
	return nil
}

// generatedName is the name of a player who chose none: "Player " and the
// first 4 characters of their id, or more of them in the rare case that
// the rules refuse those.
func (s *Service) generatedName(id string) string {
	for n := min(4, len(id)); n <= len(id); n++ {
		if name := "Player " + id[:n]; s.names.Check(name) == "" {
			return name
		}
	}
	return "Player"
}

// CheckNames holds the stored names to the naming rules: every name not
// found good under the rules in force (by their fingerprint) since it last
// changed is checked, and one the rules refuse is replaced by a generated
// name ("Player " and the first characters of the id, as for a new player
// who chose none), with a notice the player is shown (Renamed). The
// computer's and the deleted players' rows keep their names. It returns
// how many players were renamed. Names already checked are not read
// again, so it is cheap to run at every start; several nodes may run it at
// once (store.Names.CheckNames).
func (s *Service) CheckNames(ctx context.Context) (int, error) {
	n, err := s.st.CheckNames(ctx, s.names.Rules(), s.clock(), 0, func(id, name string) string {
		if id == store.BotPlayerID || id == store.DeletedPlayerID || s.names.Check(name) == "" {
			return ""
		}
		return s.generatedName(id)
	})
	if n > 0 {
		s.auth.clear() // the names this node's cache holds may be old
	}
	return n, err
}

// Renamed returns the notice of the server's last renaming of a player,
// and whether there is one.
func (s *Service) Renamed(ctx context.Context, id string) (Renamed, bool, error) {
	r, err := s.st.Renamed(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return Renamed{}, false, nil
	}
	return r, err == nil, err
}

// ClearRenamed drops the notice of a renaming once the player has seen it.
func (s *Service) ClearRenamed(ctx context.Context, id string) error {
	return s.st.ClearRenamed(ctx, id)
}
