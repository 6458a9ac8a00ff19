package live

import (
	"context"
	"errors"
	"time"

	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/live/recent"
	"dsol/internal/protocol"
	"dsol/internal/store"
)

// errTooLong refuses an action of a game that has klondike.MaxActions.
var errTooLong = game.Errorf(game.TooLong, "this game has %d actions, the most a game may have: start a new one", klondike.MaxActions)

// pending is one request of a batch being handled.
type pending struct {
	r       *doReq
	res     protocol.Result
	err     error
	dupOf   int64 // seq of the earlier action with the same client id
	applied bool
	action  klondike.Action   // as the engine resolved it
	frames  []*protocol.Frame // one per viewer, for subscribers
}

// handle applies a batch of commands, commits the accepted actions in one
// Commit and only then answers and publishes.
func (t *Table) handle(batch []*doReq) {
	t.touch()
	ps := make([]pending, len(batch))
	var actions []store.Action
	// The viewers' bases as the batch goes; they become the table's only
	// once the batch is durable.
	views := append(t.spare[:0], t.views...)
	play := t.play
	prevAt := t.recent.LastTime()
	for i, r := range batch {
		p := &ps[i]
		p.r = r
		if err := r.ctx.Err(); err != nil {
			p.err = err
			continue
		}
		cmd := r.cmd
		if cmd.ClientID != "" {
			if seq, ok := t.clientIDs.Get(cmd.Seat, cmd.ClientID); ok {
				p.dupOf = seq
				continue
			}
		}
		if err := t.eng.Check(cmd.Seat); err != nil {
			p.err = err
			continue
		}
		if t.seq >= klondike.MaxActions { // a race ends there: only a solo game comes here
			p.err = errTooLong
			continue
		}
		if cmd.Seq != nil && *cmd.Seq != t.seq {
			p.err = game.Errorf(game.Conflict, "the game is at seq %d, not %d; reload it", t.seq, *cmd.Seq)
			continue
		}
		out, err := t.eng.Apply(cmd.Seat, cmd.Action)
		if err != nil {
			p.err = err
			continue
		}
		now := t.cfg.Clock().Truncate(time.Microsecond) // as the store keeps it
		if t.seq > 0 {
			play = store.AddGap(play, prevAt, now)
		}
		prevAt = now
		if out.Tally != nil {
			out.Tally.Play = play
		}
		t.seq++
		ev := protocol.Event{
			Seq:      t.seq,
			Seat:     cmd.Seat,
			Action:   out.Action.AppendJSON(nil),
			Status:   t.eng.Status(),
			At:       now,
			ClientID: cmd.ClientID,
		}
		if cmd.ClientID != "" {
			t.clientIDs.Put(cmd.Seat, cmd.ClientID, t.seq)
		}
		p.applied, p.action = true, out.Action
		p.res = protocol.Result{Seq: t.seq, Event: ev, ViewSeq: t.seq}
		// The view after the action is built for the first viewer that
		// needs it and turned to the others (View.For).
		var built protocol.View
		viewOf := func(viewer int) protocol.View {
			if built == nil {
				built = t.eng.View(viewer, t.id, t.seq)
				return built
			}
			return built.For(viewer)
		}
		if len(t.subs) > 0 {
			p.frames = make([]*protocol.Frame, 0, len(t.subs))
			var first *protocol.Frame // with a delta the other viewers' frames share, in a race
			for _, s := range t.subs {
				if frameOf(p.frames, s.viewer) == nil {
					f := &protocol.Frame{Event: ev, View: viewOf(s.viewer), Viewer: s.viewer}
					if base, ok := views.get(s.viewer); ok && base.seq == t.seq-1 {
						f.Prev = base.view
						if _, race := f.View.(protocol.RaceView); race {
							if first == nil {
								first = f
							} else {
								f.Like = first
							}
						}
					}
					views.set(s.viewer, seqView{t.seq, f.View})
					p.frames = append(p.frames, f)
				}
			}
		}
		if f := frameOf(p.frames, cmd.Seat); f != nil {
			p.res.View = f.View
		} else {
			p.res.View = viewOf(cmd.Seat)
		}
		actions = append(actions, store.Action{
			GameID: t.id, Seq: ev.Seq, Seat: ev.Seat, Action: ev.Action, ClientID: ev.ClientID, At: now,
			Tally: out.Tally,
		})
	}
	if len(actions) > 0 {
		if err := t.cfg.Committer.Commit(context.Background(), actions...); err != nil {
			t.commitFailed(ps, err)
			return
		}
	}
	// Durable: record, store a changed status, answer, publish.
	t.durable.Store(t.seq)
	clear(t.views) // what the bases before hold may go
	t.views, t.spare = views, t.views
	t.play = play
	statusBefore := t.game.Load().Status
	for i := range ps {
		p := &ps[i]
		if p.applied {
			ev := &p.res.Event
			t.recent.Add(recent.Record{At: ev.At.UnixMicro(), Action: p.action, Seat: uint8(ev.Seat)})
		}
	}
	t.window.Store(t.recent.First())
	t.snapshot(false)
	// A changed status is stored before anyone hears of the action: a
	// player told "won" finds the game won in their list.
	if st := t.eng.Status(); st != statusBefore {
		t.storeStatus(st)
	}
	for i := range ps {
		p := &ps[i]
		switch {
		case p.applied:
			t.observe(p.r.cmd, nil)
			t.publish(p.frames) // first: a subscriber's event is queued before the sender's answer
			p.r.answer(p.res, nil)
		case p.dupOf > 0:
			p.r.answer(t.dupResult(p.r.cmd, p.dupOf))
		default:
			t.observe(p.r.cmd, p.err)
			p.r.answer(protocol.Result{}, p.err)
		}
	}
	if len(actions) > 0 {
		t.startCheck()
	}
	if t.rl != nil {
		t.rl.After()
	}
}

// dupResult answers a resent client id: the earlier event (from the
// window, else from the store), the current view.
func (t *Table) dupResult(cmd protocol.Command, seq int64) (protocol.Result, error) {
	res := protocol.Result{Seq: seq, Duplicate: true, View: t.eng.View(cmd.Seat, t.id, t.seq), ViewSeq: t.seq}
	if rec, ok := t.recent.Get(seq); ok {
		res.Event = rec.Event(seq, t.statusAt(seq))
		return res, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), t.cfg.StoreTimeout)
	defer cancel()
	acts, err := t.cfg.Store.Actions(ctx, t.id, seq-1)
	if err == nil && (len(acts) == 0 || acts[0].Seq != seq) {
		err = store.ErrNotFound
	}
	if err != nil {
		return protocol.Result{}, &game.Error{Code: game.Unavailable, Msg: "the earlier action of this id could not be read; retry", Err: err}
	}
	a := acts[0]
	res.Event = protocol.Event{Seq: seq, Seat: a.Seat, Action: a.Action, Status: t.statusAt(seq), At: a.At}
	return res, nil
}

// observe reports an accepted (err nil) or refused action to the hooks.
func (t *Table) observe(cmd protocol.Command, err error) {
	if t.cfg.Hooks.Action == nil {
		return
	}
	code := ""
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return
		}
		code = string(protocol.AsError(err).Code)
	}
	t.cfg.Hooks.Action(cmd.Action.Type.String(), code)
}

// publish sends an event's frames to every subscriber; a full subscriber is
// dropped.
func (t *Table) publish(frames []*protocol.Frame) {
	for s := range t.subs.all() {
		f := frameOf(frames, s.viewer)
		if f == nil { // subscribed while the batch was applied: cannot happen, but stay safe
			t.drop(s, protocol.ErrSlow)
			continue
		}
		if !s.push(protocol.Update{Frame: f}) {
			t.drop(s, protocol.ErrSlow)
		}
	}
}

// storeStatus writes a changed status (and result) to the game header; the
// end of a race with a result is stored with its rating decision, and the
// win of a daily challenge with its pace, in one transaction (rated.go). The log stays the source of truth: a failed write
// is repaired at the next load, and a race decided already is not rated
// again.
func (t *Table) storeStatus(status string) {
	g := *t.game.Load()
	g.Status = status
	g.Result = t.eng.Result()
	g.UpdatedAt = t.cfg.Clock()
	ctx, cancel := context.WithTimeout(context.Background(), t.cfg.StoreTimeout)
	defer cancel()
	var err error
	finished := t.rl != nil && status == "over" && len(g.Result) > 0
	switch {
	case finished:
		var decide func([2]store.Rating, int) *store.RaceRating
		if decide, err = t.raceDecision(ctx); err == nil {
			err = t.cfg.Store.FinishRace(ctx, g, decide)
		}
	case status == game.Won && game.DailyOf(g.Kind, g.Options) != "":
		var p pace
		if p, err = t.pace(ctx); err == nil {
			err = t.cfg.Store.FinishDaily(ctx, g, p.medianGap[0])
		}
	default:
		err = t.cfg.Store.UpdateGame(ctx, g)
	}
	if err != nil {
		t.cfg.Logger.Error("table: store game status", "game", t.id, "status", status, "err", err)
		return
	}
	t.game.Store(&g)
	if finished {
		if err := t.rl.LoadRatings(ctx); err != nil {
			t.cfg.Logger.Warn("table: read the race's ratings", "game", t.id, "err", err)
		}
		if t.cfg.Hooks.Finished != nil {
			t.cfg.Hooks.Finished(g)
		}
	}
}

// commitFailed undoes the uncommitted actions of a batch so that the engine
// never runs ahead of the log, and answers the batch. On a conflict (another
// node wrote this game) the table reloads from the store.
func (t *Table) commitFailed(ps []pending, cerr error) {
	conflict := errors.Is(cerr, store.ErrConflict) || errors.Is(cerr, store.ErrNotFound)
	var answer error
	if conflict {
		answer = &game.Error{Code: game.Conflict, Msg: "the game was changed elsewhere; reload it", Err: cerr}
	} else {
		answer = &game.Error{Code: game.Unavailable, Msg: "the action could not be stored; retry", Err: cerr}
	}
	t.cfg.Logger.Warn("table: commit failed", "game", t.id, "err", cerr)
	var rerr error
	if conflict {
		rerr = t.reload()
	} else {
		rerr = t.restore()
	}
	// Requests handled before the first applied action saw only committed
	// state and keep their answers; the later ones share the failure.
	first := 0
	for first < len(ps) && !ps[first].applied {
		first++
	}
	for i := range ps {
		p := &ps[i]
		switch {
		case i >= first:
			t.observe(p.r.cmd, answer)
			p.r.answer(protocol.Result{}, answer)
		case p.dupOf > 0 && rerr == nil:
			p.r.answer(t.dupResult(p.r.cmd, p.dupOf))
		case p.dupOf > 0:
			p.r.answer(protocol.Result{}, answer)
		default:
			t.observe(p.r.cmd, p.err)
			p.r.answer(protocol.Result{}, p.err)
		}
	}
	if rerr != nil {
		t.cfg.Logger.Error("table: rebuild after a failed commit", "game", t.id, "err", rerr)
		t.err = rerr
		t.stopping = true
	}
}
