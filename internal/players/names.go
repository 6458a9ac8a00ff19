package players

import (
	"dsol/internal/game"
)

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
