package sqlite

// AbandonedQuery is the query of DeleteAbandoned's candidates, for a test of
// its plan.
const AbandonedQuery = abandonedQuery

// SoloStatsQuery is the store's solo statistics query, for a test of its
// plan.
var SoloStatsQuery = soloStatsQuery

// StopCheckpointer stops the store's checkpointer, as a busy machine could
// hold it up: only the writer checkpoints from then on.
func (s *Store) StopCheckpointer() {
	s.stopOnce.Do(func() { close(s.ckptStop) })
	<-s.ckptDone
}
