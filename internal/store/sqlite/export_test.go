package sqlite

// AbandonedQuery is the query of DeleteAbandoned's candidates, for a test of
// its plan.
const AbandonedQuery = abandonedQuery

// SoloStatsQuery is the store's solo statistics query, for a test of its
// plan.
var SoloStatsQuery = soloStatsQuery
