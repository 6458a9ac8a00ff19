package store

// Rows is what the adapters' readers (Collect, ReadSoloStats,
// ReadLeaderboard) read: *sql.Rows and pgx.Rows both are.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// Row is what ScanRaceStats reads: *sql.Row and pgx.Row both are.
type Row interface {
	Scan(dest ...any) error
}

// Collect reads every row of rows with scan, in order, into a slice that is
// empty rather than nil when there is none (nil with the error of a row that
// does not scan, or of rows). scan gets rows itself, of the driver's own
// type, so that what it scans into stays on the stack where the driver's
// Scan lets it. The caller closes rows.
func Collect[R Rows, T any](rows R, scan func(R) (T, error)) ([]T, error) {
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
