package sqlite

// AbandonedQuery is the query of DeleteAbandoned's candidates, for a test of
// its plan.
const AbandonedQuery = abandonedQuery
