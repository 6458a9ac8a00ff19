package lobby

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"

	"dsol/internal/store"
	"dsol/internal/store/sqlite"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("database/sql.(*DB).connectionOpener"))
}

// TestOfferKeepsTheLatest: a subscriber that does not read holds only the
// latest list, and the hub never blocks on it.
func TestOfferKeepsTheLatest(t *testing.T) {
	s := &Sub{c: make(chan []byte, 1)}
	s.C = s.c
	for _, m := range []string{"1", "2", "3"} {
		s.offer([]byte(m))
	}
	if got := string(<-s.C); got != "3" {
		t.Fatalf("got %s, want the latest (3)", got)
	}
	select {
	case m := <-s.C:
		t.Fatalf("left over: %s", m)
	default:
	}
}

func openStore(t *testing.T) store.Store {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "dsol.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestHub: the list on subscribe, a reload on Changed, nothing running once
// the last subscriber leaves, and Close.
func TestHub(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Microsecond)
	if err := st.CreatePlayer(ctx, store.Player{ID: "ada", Name: "Ada", TokenHash: []byte("h"), CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	race := func(id string) {
		t.Helper()
		g := store.Game{ID: id, Kind: "race", Code: "DR1-D1UI-AAAAAAB", Status: "waiting", Public: true,
			Options: []byte(`{"turns":"simultaneous","series":1}`), Seats: [2]string{"ada", ""},
			SeriesID: id, SeriesGame: 1, CreatedAt: now, UpdatedAt: now}
		if err := st.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	read := func(s *Sub) Message {
		t.Helper()
		select {
		case b := <-s.C:
			var m Message
			if err := json.Unmarshal(b, &m); err != nil || m.Type != "lobby" {
				t.Fatalf("message %s: %v", b, err)
			}
			return m
		case <-time.After(10 * time.Second):
			t.Fatal("no list")
		}
		return Message{}
	}
	race("r1")
	h := NewHub(Config{Store: st, Refresh: time.Hour, Debounce: time.Millisecond})
	defer h.Close()
	s, err := h.Subscribe("ada")
	if err != nil {
		t.Fatal(err)
	}
	if m := read(s); len(m.Races) != 1 || m.Races[0].ID != "r1" || m.Races[0].Creator.Name != "Ada" {
		t.Fatalf("first list %+v", m)
	}
	s2, _ := h.Subscribe("ada") // gets the current list at once
	if m := read(s2); len(m.Races) != 1 {
		t.Fatalf("second subscriber %+v", m)
	}
	race("r2")
	h.Changed()
	if m := read(s); len(m.Races) != 2 {
		t.Fatalf("after Changed %+v", m)
	}
	s.Close()
	s2.Close()
	s.Close()
	if h.Subscribers() != 0 {
		t.Fatal("subscribers left")
	}
	h.Close()
	if _, err := h.Subscribe("ada"); err != ErrClosed {
		t.Fatalf("Subscribe after Close: %v", err)
	}
	<-h.Done()
}
