package store_test

import (
	"errors"
	"reflect"
	"testing"

	"dsol/internal/store"
)

// fakeRows yields its values one a row, then err from Err.
type fakeRows struct {
	values []int
	at     int
	err    error
}

func (r *fakeRows) Next() bool { r.at++; return r.at <= len(r.values) }

func (r *fakeRows) Scan(dest ...any) error {
	*dest[0].(*int) = r.values[r.at-1]
	return nil
}

func (r *fakeRows) Err() error { return r.err }

func TestCollect(t *testing.T) {
	errRows, errScan := errors.New("rows failed"), errors.New("scan failed")
	scan := func(row *fakeRows) (int, error) {
		var v int
		err := row.Scan(&v)
		if v < 0 {
			err = errScan
		}
		return v, err
	}
	for _, tc := range []struct {
		name    string
		rows    *fakeRows
		want    []int
		wantErr error
	}{
		{"none", &fakeRows{}, []int{}, nil},
		{"in order", &fakeRows{values: []int{3, 1, 2}}, []int{3, 1, 2}, nil},
		{"a row that does not scan", &fakeRows{values: []int{1, -1, 2}}, nil, errScan},
		{"rows that fail", &fakeRows{values: []int{1}, err: errRows}, nil, errRows},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := store.Collect(tc.rows, scan)
			if !errors.Is(err, tc.wantErr) || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Collect = %#v, %v; want %#v, %v", got, err, tc.want, tc.wantErr)
			}
		})
	}
}
