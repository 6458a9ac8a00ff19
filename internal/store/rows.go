package store

// Rows is what the adapters' readers (Collect, ReadSoloStats,
// ReadLeaderboard) read: *sql.Rows and pgx.Rows both are.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// Row is what ScanRaceStats and the scan functions of Collect read:
// *sql.Row, *sql.Rows, pgx.Row and pgx.Rows all are.
type Row interface {
	Scan(dest ...any) error
}

// Collect reads every row of rows with scan, in order, into a slice that is
// empty rather than nil when there is none (nil with the error of a row that
// does not scan, or of rows). The caller closes rows.
func Collect[T any](rows Rows, scan func(Row) (T, error)) ([]T, error) {
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
