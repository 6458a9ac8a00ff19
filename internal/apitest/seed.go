package apitest

import (
	"context"
	"testing"
	"time"

	"dsol/internal/engine"
	"dsol/internal/klondike"
	"dsol/internal/store"
)

// SeedSolo appends n actions to the log of the solo game id (a fresh one:
// its log empty), as its table would have stored them: draws, and a
// recycle whenever the stock is out, a second apart. It makes a game of
// any length at once, where playing it through the API would take long.
func SeedSolo(tb testing.TB, st store.Store, id string, n int) {
	tb.Helper()
	ctx := context.Background()
	g, err := st.Game(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	eng, err := engine.NewSolo(g)
	if err != nil {
		tb.Fatal(err)
	}
	at := g.CreatedAt
	batch := make([]store.Action, 0, 1000)
	for seq := 1; seq <= n; seq++ {
		out, err := eng.Apply(1, klondike.Simple(klondike.Draw))
		if err != nil {
			out, err = eng.Apply(1, klondike.Simple(klondike.Recycle))
		}
		if err != nil {
			tb.Fatalf("seq %d: %v", seq, err)
		}
		at = at.Add(time.Second)
		batch = append(batch, store.Action{GameID: id, Seq: int64(seq), Seat: 1, Action: out.Action.AppendJSON(nil), At: at, Tally: out.Tally})
		if len(batch) == cap(batch) || seq == n {
			if err := st.AppendActions(ctx, batch); err != nil {
				tb.Fatal(err)
			}
			batch = batch[:0]
		}
	}
}
