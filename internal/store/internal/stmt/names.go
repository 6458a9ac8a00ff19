package stmt

// Renamed reads player $1's notice of a renaming by the server:
// renamed_from, renamed_at (NULL: none).
const Renamed = `SELECT renamed_from, renamed_at FROM players WHERE id = $1`

// ClearRenamed drops player $1's notice of a renaming.
const ClearRenamed = `UPDATE players SET renamed_from = NULL, renamed_at = NULL WHERE id = $1`
