package stmt

// Tokens lists the tokens of player $1, oldest first: hash, created_at.
const Tokens = `SELECT hash, created_at FROM tokens WHERE player_id = $1 ORDER BY created_at, hash`

// RevokeToken deletes token $1.
const RevokeToken = `DELETE FROM tokens WHERE hash = $1`

// RevokeTokens deletes every token of player $1.
const RevokeTokens = `DELETE FROM tokens WHERE player_id = $1`

// PutLinkCode stores the transfer code of player $1, hash $2, expiring at
// $3, created at $4, unused, in place of the one they had.
const PutLinkCode = `INSERT INTO link_codes (player_id, hash, expires_at, used_at, created_at)
	VALUES ($1, $2, $3, NULL, $4)
	ON CONFLICT (player_id) DO UPDATE SET hash = $2, expires_at = $3, used_at = NULL, created_at = $4`

// linkColumns are the columns LinkCode and LinkCodeByHash read.
const linkColumns = `player_id, hash, expires_at, used_at, created_at`

// LinkCode reads the transfer code of player $1: player_id, hash,
// expires_at, used_at (NULL: unused), created_at.
const LinkCode = `SELECT ` + linkColumns + ` FROM link_codes WHERE player_id = $1`

// LinkCodeByHash reads the transfer code of hash $1, as LinkCode.
const LinkCodeByHash = `SELECT ` + linkColumns + ` FROM link_codes WHERE hash = $1`

// UseLinkCode marks the transfer code of player $2 used at $1.
const UseLinkCode = `UPDATE link_codes SET used_at = $1 WHERE player_id = $2`
