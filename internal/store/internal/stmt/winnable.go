package stmt

// WinnableDeals lists the pool of winnable deals, oldest first: mode, deal,
// budget, positions, beam, found_at.
const WinnableDeals = `SELECT mode, deal, budget, positions, beam, found_at
	FROM winnable_deals ORDER BY found_at, mode, deal`
