package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"dsol/internal/finishtest"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/solo"
	"dsol/internal/store"
)

const code = "DS1-D1N-AAAAAAB"

func mustDo(tb testing.TB, reg *Registry, id string, cmd protocol.Command) protocol.Result {
	tb.Helper()
	res, err := reg.Do(context.Background(), id, cmd)
	if err != nil {
		tb.Fatalf("do %v: %v", cmd.Action, err)
	}
	return res
}

func mustSnapshot(tb testing.TB, reg *Registry, id string) (int64, protocol.SoloView) {
	tb.Helper()
	seq, v, err := reg.Snapshot(context.Background(), id, 1)
	if err != nil {
		tb.Fatal(err)
	}
	return seq, v.(protocol.SoloView)
}

// play applies n random legal actions through the registry and to a mirror
// engine, and returns the mirror.
func play(tb testing.TB, reg *Registry, id string, n int, seed uint64) *solo.Game {
	tb.Helper()
	g, err := solo.New(mustCode(tb, code))
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for range n {
		a, ok := legal(g, rng)
		if !ok {
			break
		}
		if _, err := g.Apply(a); err != nil {
			tb.Fatal(err)
		}
		mustDo(tb, reg, id, protocol.Command{Seat: 1, Action: a})
	}
	return g
}

func TestPlayReplayAndRestart(t *testing.T) {
	e := mustEnv(t)
	id := mustGame(t, e, "g1", code)
	mirror := play(t, e.reg, id, 120, 7)
	seq, v := mustSnapshot(t, e.reg, id)
	if want := mirror.View(); !reflect.DeepEqual(v.View, want) {
		t.Fatalf("view differs from the mirror engine:\n got %+v\nwant %+v", v.View, want)
	}
	if v.ID != id || v.Seq != seq || seq == 0 {
		t.Fatalf("id %q seq %d/%d", v.ID, v.Seq, seq)
	}
	e.restart(t)
	seq2, v2 := mustSnapshot(t, e.reg, id)
	if seq2 != seq || !reflect.DeepEqual(v2, v) {
		t.Fatalf("after restart: seq %d, view %+v; want %d, %+v", seq2, v2, seq, v)
	}
}

func TestEvictAndRebuild(t *testing.T) {
	e := mustEnv(t)
	e.cfg.IdleAfter = time.Minute
	e.restart(t)
	id := mustGame(t, e, "g1", code)
	play(t, e.reg, id, 20, 1)
	seq, v := mustSnapshot(t, e.reg, id)
	if n := e.reg.Sweep(e.clock.Now()); n != 0 {
		t.Fatalf("evicted %d fresh tables", n)
	}
	sub := mustSubscribe(t, e.reg, id)
	e.clock.Advance(2 * time.Minute)
	if n := e.reg.Sweep(e.clock.Now()); n != 0 {
		t.Fatalf("evicted %d tables with a subscriber", n)
	}
	sub.Close()
	e.clock.Advance(2 * time.Minute)
	if n := e.reg.Sweep(e.clock.Now()); n != 1 {
		t.Fatalf("evicted %d tables, want 1", n)
	}
	if us, open := sub.Take(nil); open || len(us) != 0 {
		t.Fatal("subscription still open")
	}
	if e.reg.Live() != 0 {
		t.Fatalf("%d live tables after eviction", e.reg.Live())
	}
	seq2, v2 := mustSnapshot(t, e.reg, id)
	if seq2 != seq || !reflect.DeepEqual(v2, v) {
		t.Fatal("rebuilt table differs")
	}
}

// TestSweeperEvictsIdleTables: the registry's own sweeper, on its own
// ticker (every quarter of IdleAfter), evicts a table at its first tick once
// the table has been idle for IdleAfter, not a nanosecond before; never one
// with a subscriber; and a request rebuilds it. It runs on synctest's clock:
// the minutes pass at once, and to the nanosecond.
func TestSweeperEvictsIdleTables(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const idle, tick = time.Minute, time.Minute / 4
		e := mustEnv(t)
		e.cfg.IdleAfter = idle
		e.cfg.Clock = time.Now
		e.restart(t)
		start := time.Now() // the sweeper's ticker starts now
		live := func(what string, want int) {
			t.Helper()
			synctest.Wait()
			if n := e.reg.Live(); n != want {
				t.Fatalf("%s: %d live tables, want %d", what, n, want)
			}
		}
		// evicted waits until the sweeper's first tick at which the table,
		// last used now, has been idle for IdleAfter, and checks that the
		// table is live a nanosecond before and gone at it.
		evicted := func(what string) {
			t.Helper()
			due := time.Now().Add(idle).Sub(start)
			at := start.Add((due + tick - 1) / tick * tick)
			time.Sleep(time.Until(at) - time.Nanosecond)
			live(what+": a nanosecond before the tick", 1)
			time.Sleep(time.Nanosecond)
			live(what+": at the tick", 0)
		}
		id := mustGame(t, e, "g1", code)
		play(t, e.reg, id, 5, 1)
		evicted("idle after its actions")

		sub := mustSubscribe(t, e.reg, id)
		time.Sleep(10 * idle)
		live("a table with a subscriber", 1)
		sub.Close()
		evicted("idle once the subscriber left")
		if seq, _ := mustSnapshot(t, e.reg, id); seq != 5 {
			t.Fatalf("rebuilt at seq %d, want 5", seq)
		}
	})
}

func TestClientIDAppliesOnce(t *testing.T) {
	e := mustEnv(t)
	id := mustGame(t, e, "g1", code)
	draw := protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw), ClientID: "a1"}
	r1 := mustDo(t, e.reg, id, draw)
	mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)})
	r2 := mustDo(t, e.reg, id, draw)
	if r1.Duplicate || !r2.Duplicate || r2.Seq != r1.Seq || r2.ViewSeq != 2 {
		t.Fatalf("first %+v, resend %+v", r1, r2)
	}
	// After a restart the ids are rebuilt from the log.
	e.restart(t)
	stale := int64(0)
	draw.Seq = &stale
	r3 := mustDo(t, e.reg, id, draw)
	if !r3.Duplicate || r3.Seq != 1 || string(r3.Event.Action) != `{"type":"draw"}` {
		t.Fatalf("after restart: %+v", r3)
	}
	if seq, _ := mustSnapshot(t, e.reg, id); seq != 2 {
		t.Fatalf("seq %d, want 2", seq)
	}
}

func TestRefusals(t *testing.T) {
	e := mustEnv(t)
	id := mustGame(t, e, "g1", code)
	mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)})
	stale := int64(0)
	for _, tc := range []struct {
		name string
		cmd  protocol.Command
		code game.Code
	}{
		{"stale seq", protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw), Seq: &stale}, game.Conflict},
		{"illegal", protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Recycle)}, game.IllegalMove},
		{"seat 2", protocol.Command{Seat: 2, Action: klondike.Simple(klondike.Draw)}, game.NotYourTurn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.reg.Do(context.Background(), id, tc.cmd)
			if got := protocol.AsError(err); got == nil || got.Code != tc.code {
				t.Fatalf("err %v, want %s", err, tc.code)
			}
		})
	}
	if seq, _ := mustSnapshot(t, e.reg, id); seq != 1 {
		t.Fatalf("seq %d after refusals, want 1", seq)
	}
	if _, err := e.reg.Get(context.Background(), "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing game: %v", err)
	}
}

func TestCommitFailureRollsBack(t *testing.T) {
	e := mustEnv(t)
	id := mustGame(t, e, "g1", code)
	mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)})
	seq, before := mustSnapshot(t, e.reg, id)
	e.st.setFail(store.ErrUnavailable)
	_, err := e.reg.Do(context.Background(), id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw), ClientID: "x"})
	if got := protocol.AsError(err); got.Code != game.Unavailable {
		t.Fatalf("err %v, want unavailable", err)
	}
	seq2, after := mustSnapshot(t, e.reg, id)
	if seq2 != seq || !reflect.DeepEqual(before, after) {
		t.Fatal("the engine ran ahead of the log")
	}
	e.st.setFail(nil)
	r := mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw), ClientID: "x"})
	if r.Duplicate || r.Seq != 2 {
		t.Fatalf("retry after the failure: %+v", r)
	}
}

// TestCommitFailureStoreDown: when the store can neither take a batch nor
// give the log back, the table stops rather than run ahead of the log; the
// next request, once the store is back, builds the game from the store with
// every acknowledged action and nothing else.
func TestCommitFailureStoreDown(t *testing.T) {
	e := mustEnv(t)
	id := mustGame(t, e, "g1", code)
	mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)})
	tb, err := e.reg.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	e.st.setFail(store.ErrUnavailable)
	e.st.setFailRead(store.ErrUnavailable)
	_, err = e.reg.Do(context.Background(), id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)})
	if got := protocol.AsError(err); got.Code != game.Unavailable {
		t.Fatalf("err %v, want unavailable", err)
	}
	<-tb.Done()
	e.st.setFail(nil)
	e.st.setFailRead(nil)
	if seq, _ := mustSnapshot(t, e.reg, id); seq != 1 {
		t.Fatalf("seq %d once the store is back, want 1", seq)
	}
	if r := mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)}); r.Seq != 2 {
		t.Fatalf("the next action: %+v", r)
	}
}

func TestFenceReloads(t *testing.T) {
	e := mustEnv(t)
	id := mustGame(t, e, "g1", code)
	mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)})
	// Another node appends seq 2 behind this table's back.
	err := e.st.AppendActions(context.Background(), []store.Action{{GameID: id, Seq: 2, Seat: 1,
		Action: []byte(`{"type":"draw"}`), At: e.clock.Now()}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.reg.Do(context.Background(), id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)})
	if got := protocol.AsError(err); got.Code != game.Conflict {
		t.Fatalf("err %v, want conflict", err)
	}
	if seq, v := mustSnapshot(t, e.reg, id); seq != 2 || v.Stock != 59-2 {
		t.Fatalf("after reload: seq %d stock %d", seq, v.Stock)
	}
	if r := mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)}); r.Seq != 3 {
		t.Fatalf("next seq %d, want 3", r.Seq)
	}
}

func TestConcurrentTotalOrder(t *testing.T) {
	e := mustEnv(t)
	id := mustGame(t, e, "g1", code)
	tb, err := e.reg.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := tb.Subscribe(context.Background(), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	const n = 50
	seqs := make([]int64, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r, err := e.reg.Do(context.Background(), id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)})
			if err != nil {
				t.Error(err)
				return
			}
			seqs[i] = r.Seq
		})
	}
	wg.Wait()
	seen := make(map[int64]bool)
	for _, s := range seqs {
		if s < 1 || s > n || seen[s] {
			t.Fatalf("seqs %v are not 1..%d", seqs, n)
		}
		seen[s] = true
	}
	f := feed(sub)
	for want := int64(1); want <= n; want++ {
		u, _ := f.Recv(context.Background())
		if u.Frame.Event.Seq != want || u.Frame.View.(protocol.SoloView).Seq != want {
			t.Fatalf("event %d, want %d", u.Frame.Event.Seq, want)
		}
	}
	evs, err := tb.EventsSince(context.Background(), 45)
	if err != nil || len(evs) != 5 || evs[0].Seq != 46 {
		t.Fatalf("events since 45: %v %v", evs, err)
	}
}

func TestSlowSubscriberDropped(t *testing.T) {
	e := mustEnv(t)
	e.cfg.SubscriberBuffer = 2
	e.restart(t)
	id := mustGame(t, e, "g1", code)
	tb, err := e.reg.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	slow, err := tb.Subscribe(context.Background(), 1, -1)
	if err != nil {
		t.Fatal(err)
	}
	for range 4 {
		mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)})
	}
	if n := drain(slow); n != 2 || !errors.Is(slow.Err(), protocol.ErrSlow) {
		t.Fatalf("slow subscriber got %d updates, err %v", n, slow.Err())
	}
	slow.Close() // harmless after the drop
	sub, err := tb.Subscribe(context.Background(), 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if st := sub.Start(); !st.Resumed || len(st.Missed) != 3 || st.Seq != 4 {
		t.Fatalf("resume: %+v", sub)
	}
	b, _ := json.Marshal(sub.Start().Missed[0])
	if string(b) != `{"seq":2,"seat":1,"action":{"type":"draw"},"status":"playing","at":"2030-01-02T03:04:05Z"}` {
		t.Fatalf("event JSON %s", b)
	}
}

// slowHeader delays every game header write that stores a finished game, as
// a busy store does.
type slowHeader struct {
	store.Store
}

func (s slowHeader) UpdateGame(ctx context.Context, g store.Game) error {
	if g.Status != "playing" {
		time.Sleep(50 * time.Millisecond)
	}
	return s.Store.UpdateGame(ctx, g)
}

// TestStatusStoredBeforeAnswer: the action that wins a game is answered only
// once the game's header says won, so the player's list of games (read from
// the store) never shows a game just won as still in play. (Not in a
// synctest bubble: the committer's pooled requests carry channels, which a
// bubble would tie to itself, from one test to the next.)
func TestStatusStoredBeforeAnswer(t *testing.T) {
	e := mustEnv(t)
	e.cfg.Store = slowHeader{e.st}
	e.restart(t)
	c, line := finishtest.Line(t, 1)
	id := mustGame(t, e, "won", c.String())
	for _, a := range line {
		mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: a})
	}
	res := mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Finish)})
	if res.Event.Status != "won" {
		t.Fatalf("the finish left the game %s", res.Event.Status)
	}
	g, err := e.st.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != "won" {
		t.Fatalf("answered won while the stored game says %s", g.Status)
	}
}

// gatedHeader holds the header reads of game gated while armed, until
// release is closed; entered is told of each held read.
type gatedHeader struct {
	store.Store
	gated   string
	armed   *atomic.Bool
	entered chan struct{}
	release chan struct{}
}

func (s gatedHeader) Game(ctx context.Context, id string) (store.Game, error) {
	if id == s.gated && s.armed.Load() {
		s.entered <- struct{}{}
		<-s.release
	}
	return s.Store.Game(ctx, id)
}

// TestSubscribeOffTable: a subscriber's reads of the store (is the table
// stale?) happen off the table's goroutine, so an action on the same table
// is answered while they wait.
func TestSubscribeOffTable(t *testing.T) {
	e := mustEnv(t)
	g := gatedHeader{Store: e.st, gated: "g1", armed: new(atomic.Bool), entered: make(chan struct{}), release: make(chan struct{})}
	e.cfg.Store = g
	e.restart(t)
	id := mustGame(t, e, "g1", code)
	mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)})
	tb, err := e.reg.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	g.armed.Store(true)
	type subscribed struct {
		s   *Subscription
		err error
	}
	done := make(chan subscribed, 1)
	go func() {
		s, err := tb.Subscribe(context.Background(), 1, -1)
		done <- subscribed{s, err}
	}()
	<-g.entered // the subscriber waits on the store
	// The bound is against a hang, not a speed test.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	res, err := e.reg.Do(ctx, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)})
	cancel()
	g.armed.Store(false)
	close(g.release)
	if err != nil || res.Seq != 2 {
		t.Fatalf("an action while a subscriber reads the store: seq %d, %v; want seq 2", res.Seq, err)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	defer r.s.Close()
	if r.s.Start().Seq != 2 {
		t.Fatalf("subscribed at seq %d, want 2: the table's own action is not another node's", r.s.Start().Seq)
	}
}

// TestSubscribeFindsStale: a subscriber that finds actions in the store
// past the table's seq (another node wrote the game) stops the table: its
// subscribers get ErrReloaded, and the game is built again from the store.
func TestSubscribeFindsStale(t *testing.T) {
	e := mustEnv(t)
	id := mustGame(t, e, "g1", code)
	mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)})
	tb, err := e.reg.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	old, err := tb.Subscribe(context.Background(), 1, -1)
	if err != nil {
		t.Fatal(err)
	}
	a := store.Action{GameID: id, Seq: 2, Seat: 1, Action: []byte(`{"type":"draw"}`), At: e.clock.Now(), Tally: &store.Tally{Moves: 2}}
	if err := e.st.AppendActions(context.Background(), []store.Action{a}); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Subscribe(context.Background(), 1, -1); !errors.Is(err, protocol.ErrStopped) {
		t.Fatalf("subscribing to a stale table: %v, want ErrStopped", err)
	}
	drain(old)
	if !errors.Is(old.Err(), protocol.ErrReloaded) {
		t.Fatalf("the old subscriber's end: %v, want ErrReloaded", old.Err())
	}
	if seq, _ := mustSnapshot(t, e.reg, id); seq != 2 {
		t.Fatalf("rebuilt at seq %d, want 2", seq)
	}
}

// TestSubscriptionQueue: updates come out of Take in the order the table
// queued them, the last ones before the end included; every push and the end
// call the OnReady function; the queue gives back a burst's room.
func TestSubscriptionQueue(t *testing.T) {
	cfg := Config{SubscriberBuffer: 64}
	s := &Subscription{t: &Table{cfg: &cfg}}
	ready := 0
	s.OnReady(func() { ready++ })
	if us, open := s.Take(nil); len(us) != 0 || !open {
		t.Fatalf("empty queue: %v %v", us, open)
	}
	frames := make([]*protocol.Frame, 20)
	for i := range frames {
		frames[i] = &protocol.Frame{}
		if !s.push(protocol.Update{Frame: frames[i]}) {
			t.Fatalf("push %d refused", i)
		}
	}
	if ready != 20 {
		t.Fatalf("OnReady called %d times, want 20", ready)
	}
	us, open := s.Take(nil)
	if len(us) != 20 || !open {
		t.Fatalf("took %d, open %v", len(us), open)
	}
	for i, u := range us {
		if u.Frame != frames[i] {
			t.Fatalf("update %d out of order", i)
		}
	}
	if cap(s.q) != 0 {
		t.Fatalf("an idle queue keeps room for %d updates after a burst", cap(s.q))
	}

	s.push(protocol.Update{Frame: frames[0]})
	s.push(protocol.Update{Frame: frames[1]})
	if us, open := s.Take(nil); !open || len(us) != 2 || cap(s.q) == 0 {
		t.Fatalf("took %d, open %v, room kept %d", len(us), open, cap(s.q))
	}
	s.push(protocol.Update{Frame: frames[2]})
	s.end()
	if ready != 24 {
		t.Fatalf("OnReady called %d times, want 24 (a push or the end each)", ready)
	}
	if us, open := s.Take(nil); open || len(us) != 1 || us[0].Frame != frames[2] {
		t.Fatalf("after the end: %d updates, open %v; want the one before it", len(us), open)
	}
	if us, open := s.Take(nil); open || len(us) != 0 {
		t.Fatal("Take after the end reports open or updates")
	}

	cfg.SubscriberBuffer = 2
	s3 := &Subscription{t: s.t}
	for i, want := range []bool{true, true, false} {
		if got := s3.push(protocol.Update{}); got != want {
			t.Fatalf("push %d of a 2-update bound: %v, want %v", i+1, got, want)
		}
	}
}

// gated holds the first AppendActions until release is closed, telling
// entered when it begins.
type gated struct {
	store.Store
	once    sync.Once
	entered chan struct{}
	release chan struct{}
}

func (g *gated) AppendActions(ctx context.Context, as []store.Action) error {
	g.once.Do(func() {
		close(g.entered)
		<-g.release
	})
	return g.Store.AppendActions(ctx, as)
}

// TestStoppedTableAnswersWhatItHeld: commands handed to a table (Submit
// returned nil) that the table stops before taking are answered
// ErrStopped, each once, and nothing of them is applied: a caller that
// waits for its answer never waits for ever.
func TestStoppedTableAnswersWhatItHeld(t *testing.T) {
	e := mustEnv(t)
	g := &gated{Store: e.st, entered: make(chan struct{}), release: make(chan struct{})}
	com := store.NewCommitter(g, 0, 0, nil)
	defer com.Close()
	cfg := e.cfg
	cfg.Store, cfg.Committer = g, com
	reg := NewRegistry(cfg)
	id := mustGame(t, e, "g1", code)
	tb, err := reg.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	draw := protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)}
	type answer struct {
		res protocol.Result
		err error
	}
	const held = 10
	answers := make(chan answer, held+1)
	submit := func(cmd protocol.Command) {
		t.Helper()
		err := tb.Submit(context.Background(), cmd, func(res protocol.Result, err error) { answers <- answer{res, err} })
		if err != nil {
			t.Fatalf("submit: %v", err)
		}
	}
	submit(draw) // the table takes it and commits: held at the store
	<-g.entered
	for i := range held {
		cmd := draw
		cmd.ClientID = fmt.Sprintf("h%d", i)
		submit(cmd) // queued behind the commit
	}
	closed := make(chan error, 1)
	go func() { closed <- reg.Close(context.Background()) }()
	for !isClosed(tb.quit) {
		time.Sleep(time.Millisecond)
	}
	close(g.release) // the commit ends; the table stops before the queue
	if a := <-answers; a.err != nil || a.res.Seq != 1 {
		t.Fatalf("first: %+v", a)
	}
	deadline := time.After(10 * time.Second)
	for i := range held {
		select {
		case a := <-answers:
			if !errors.Is(a.err, protocol.ErrStopped) {
				t.Fatalf("held %d: %+v, want ErrStopped", i, a)
			}
		case <-deadline:
			t.Fatalf("%d of %d held commands never answered", held-i, held)
		}
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-answers:
		t.Fatalf("an answer too many: %+v", a)
	default:
	}
	if err := tb.Submit(context.Background(), draw, func(protocol.Result, error) { t.Error("answered after the stop") }); !errors.Is(err, protocol.ErrStopped) {
		t.Fatalf("submit to the stopped table: %v", err)
	}
	acts, err := e.st.Actions(context.Background(), id, 0)
	if err != nil || len(acts) != 1 {
		t.Fatalf("%d actions stored (%v), want 1", len(acts), err)
	}
}
