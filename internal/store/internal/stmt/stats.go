package stmt

// ResetStats sets player $2's reset point of the statistics to $1.
const ResetStats = `UPDATE players SET stats_since = $1 WHERE id = $2`
