package postgres

import "dsol/internal/store/internal/stmt"

// AbandonedQuery is the query of DeleteAbandoned's candidates, for a test of
// its plan.
const AbandonedQuery = stmt.Abandoned

// RetentionLockID is the advisory lock of the sweep of a schema, for a test
// that holds it.
var RetentionLockID = retentionLockID

// SoloStatsQuery is the store's solo statistics query, for a test of its
// plan.
var SoloStatsQuery = soloStatsQuery
