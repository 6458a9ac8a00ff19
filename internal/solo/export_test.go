package solo

// UndoAvailable returns how many undo steps are available (at most 200).
func (g *Game) UndoAvailable() int { return g.histN }
