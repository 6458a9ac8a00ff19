package service

import (
	"testing"

	"dsol/internal/cards"
	"dsol/internal/race"
)

// TestThinkBotSlots: the strong bot's search (SolverThink over the server's slots) takes a hint slot, and with
// none free answers at once that it did not think (the bot then plays its
// plain move); with one, it is race.Think's hint.
func TestThinkBotSlots(t *testing.T) {
	slots := NewSlots(1)
	think := SolverThink(slots)
	r, err := race.New(cards.Code{Kind: cards.Race, Draw: 1, Deal: 7}, race.Options{})
	if err != nil {
		t.Fatal(err)
	}
	seen := r.Seen(2)
	slots.TryTake()
	if h, ok := think(seen, 3); ok || h.OK {
		t.Fatalf("no slot free, yet %+v %v", h, ok)
	}
	slots.Free()
	h, ok := think(seen, 3)
	if want := race.Think(seen, 3, race.StrongOptions); !ok || h != want {
		t.Fatalf("%+v %v, want %+v", h, ok, want)
	}
	if slots.Busy() != 0 {
		t.Fatal("the slot was not given back")
	}
}
