package service

import (
	"bytes"
	"testing"

	"dsol/internal/cards"
	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/race"
)

// TestServerRedealsDeadRaces: a deal the server chose whose seats are both
// blocked before the first move (seen once in a test run) is dealt again; a
// chosen code is kept as it is.
func TestServerRedealsDeadRaces(t *testing.T) {
	dead, err := cards.ParseCode("DR2-D3SM-06811960DF5BD0997FE9BB95321566AD90C62ED57C30A9990A8E988886D6FAAF")
	if err != nil {
		t.Fatal(err)
	}
	eo, err := engine.RaceOptions(game.RaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rc, err := race.New(dead, eo); err != nil || rc.Status() != race.Over {
		t.Fatalf("the dead deal is not dead: %v", err)
	}
	var zeros [cards.SecretBytes]byte
	s := &Service{random: bytes.NewReader(zeros[:])}
	got, err := s.liveDeal(dead, false, eo)
	if err != nil || got.Key != zeros || got.String()[:9] != "DR2-D3SM-" {
		t.Fatalf("redealt %s (%v), want the zero secret", got, err)
	}
	if rc, _ := race.New(got, eo); rc.Status() != race.Playing {
		t.Fatal("the redeal is dead too")
	}
	if got, err := s.liveDeal(dead, true, eo); err != nil || got != dead {
		t.Fatalf("a chosen code became %s (%v)", got, err)
	}
	s.random = bytes.NewReader(bytes.Repeat(dead.Key[:], deadDealTries))
	if _, err := s.liveDeal(dead, false, eo); err == nil {
		t.Fatal("a source of dead deals only was accepted")
	}
}
