// Package stmt holds the SQL statements that the SQLite and PostgreSQL
// adapters run as one text. Parameters are written $1, $2, …, which both
// bind by position (SQLite takes $N for a named parameter, and its driver
// binds it to the Nth argument); each adapter passes times in its own form
// (SQLite: microseconds since the epoch, PostgreSQL: timestamptz).
//
// What the dialects write differently stays in its adapter: the batch
// writes (COPY, arrays against rows of VALUES and IN lists), row locks,
// statements whose text must match a partial index's predicate, and the
// checks of names. The files follow the roles of store.Store, as in the
// adapters.
package stmt

import (
	"strconv"
	"strings"
)

// placeholders returns "$1, $2, …, $n".
func placeholders(n int) string {
	ph := make([]string, n)
	for i := range ph {
		ph[i] = "$" + strconv.Itoa(i+1)
	}
	return strings.Join(ph, ", ")
}
