package live

// clientIDs are the seqs of a game's actions that carried a client id, by
// seat and id: one map of strings per seat, which hashes faster than a key
// of seat and id together, on every action that carries one.
type clientIDs [3]map[string]int64

// get returns the seq of seat's action with id.
func (c *clientIDs) get(seat int, id string) (int64, bool) {
	if seat < 0 || seat >= len(c) {
		return 0, false
	}
	seq, ok := c[seat][id]
	return seq, ok
}

// put records that seat's action with id is seq. A seat that cannot act
// (there are 1 and 2) has no ids to remember.
func (c *clientIDs) put(seat int, id string, seq int64) {
	if seat < 0 || seat >= len(c) {
		return
	}
	if c[seat] == nil {
		c[seat] = make(map[string]int64)
	}
	c[seat][id] = seq
}
