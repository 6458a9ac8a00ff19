package live

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"dsol/internal/cards"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/solo"
	"dsol/internal/store"
	"dsol/internal/store/sqlite"
	"dsol/internal/testenv"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// flaky wraps a Store whose AppendActions, and Actions, can be made to
// fail.
type flaky struct {
	store.Store
	mu       sync.Mutex
	fail     error
	failRead error
}

func (f *flaky) setFailRead(err error) {
	f.mu.Lock()
	f.failRead = err
	f.mu.Unlock()
}

func (f *flaky) Actions(ctx context.Context, game string, after int64) ([]store.Action, error) {
	f.mu.Lock()
	err := f.failRead
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return f.Store.Actions(ctx, game, after)
}

func (f *flaky) setFail(err error) {
	f.mu.Lock()
	f.fail = err
	f.mu.Unlock()
}

func (f *flaky) AppendActions(ctx context.Context, as []store.Action) error {
	f.mu.Lock()
	err := f.fail
	f.mu.Unlock()
	if err != nil {
		return err
	}
	return f.Store.AppendActions(ctx, as)
}

type env struct {
	st    *flaky
	com   *store.Committer
	reg   *Registry
	clock *testenv.Clock
	cfg   Config
}

// mustEnv opens a SQLite store in a temporary directory with a committer and
// a registry; everything is closed at the end of the test.
func mustEnv(tb testing.TB) *env {
	tb.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(tb.TempDir(), "t.db"))
	if err != nil {
		tb.Fatal(err)
	}
	return mustEnvOn(tb, s)
}

// mustEnvOn is mustEnv on the store s, which it closes at the end.
func mustEnvOn(tb testing.TB, s store.Store) *env {
	tb.Helper()
	e := &env{st: &flaky{Store: s}, clock: testenv.NewClock()}
	e.com = store.NewCommitter(e.st, time.Millisecond, 0, nil)
	e.cfg = Config{Store: e.st, Committer: e.com, Clock: e.clock.Now, IdleAfter: 0}
	e.reg = NewRegistry(e.cfg)
	tb.Cleanup(func() {
		if err := e.reg.Close(context.Background()); err != nil {
			tb.Error(err)
		}
		e.com.Close()
		s.Close()
	})
	return e
}

// restart closes the registry and opens a fresh one on the same store.
func (e *env) restart(tb testing.TB) {
	tb.Helper()
	if err := e.reg.Close(context.Background()); err != nil {
		tb.Fatal(err)
	}
	e.reg = NewRegistry(e.cfg)
}

// mustGame creates a player and a solo game of code; it returns the game id.
func mustGame(tb testing.TB, e *env, id, code string) string {
	tb.Helper()
	ctx := context.Background()
	now := e.clock.Now()
	pid := "p-" + id
	if err := e.st.CreatePlayer(ctx, store.Player{ID: pid, Name: "P", TokenHash: []byte(pid), CreatedAt: now}); err != nil {
		tb.Fatal(err)
	}
	g := store.Game{ID: id, Kind: "solo", Code: code, Status: "playing", Seats: [2]string{pid}, CreatedAt: now, UpdatedAt: now}
	if err := e.st.CreateGame(ctx, g); err != nil {
		tb.Fatal(err)
	}
	return id
}

func mustCode(tb testing.TB, s string) cards.Code {
	tb.Helper()
	c, err := cards.ParseCode(s)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// candidates lists actions worth trying on a solo game.
func candidates() []klondike.Action {
	as := []klondike.Action{klondike.Simple(klondike.Draw), klondike.Simple(klondike.Recycle),
		klondike.FromPile(klondike.Tap, klondike.Waste, 1)}
	for i := range 9 {
		c := klondike.ColPile(i)
		as = append(as, klondike.FromPile(klondike.Tap, c, 1), klondike.NewMove(klondike.Waste, c, 1))
		for j := range 9 {
			if j != i {
				for n := 1; n <= 3; n++ {
					as = append(as, klondike.NewMove(c, klondike.ColPile(j), n))
				}
			}
		}
		for f := range 8 {
			as = append(as, klondike.NewMove(klondike.Slot(f), c, 1))
		}
	}
	return as
}

// legal returns a random legal action of g (never undo), preferring
// foundation plays, or false when there is none.
func legal(g *solo.Game, rng *rand.Rand) (klondike.Action, bool) {
	var ok []klondike.Action
	for _, a := range candidates() {
		cp := *g
		if _, err := cp.Apply(a); err == nil {
			ok = append(ok, a)
		}
	}
	if len(ok) == 0 {
		return klondike.Action{}, false
	}
	return ok[rng.IntN(len(ok))], true
}

// feed reads a subscription one update at a time, waiting for each.
func feed(s *Subscription) *testenv.Feed[protocol.Update] { return testenv.NewFeed(s.Take, s.OnReady) }

// drain reads a subscription to its end and counts the updates.
func drain(s *Subscription) int {
	f, n := feed(s), 0
	for _, ok := f.Recv(context.Background()); ok; _, ok = f.Recv(context.Background()) {
		n++
	}
	return n
}

// mustSubscribe follows game id as seat 1 from its current state.
func mustSubscribe(tb testing.TB, reg *Registry, id string) *Subscription {
	tb.Helper()
	t, err := reg.Get(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	sub, err := t.Subscribe(context.Background(), 1, -1)
	if err != nil {
		tb.Fatal(err)
	}
	return sub
}
