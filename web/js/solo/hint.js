// Hints: the server recommends a move (GET /api/v1/games/{id}/hint) worked
// out only from what the player has seen; the table marks it without
// playing it: the cards that would move (.card.hinted) and the piles they
// leave and reach (.hint-from, .hint-to on the [data-pile] element).
import { api } from '../api.js';

/** marks is what to mark for a hinted action: the pile it takes from, the pile it goes to (or null) and how many cards move. */
export function marks(a) {
  if (!a) return null;
  if (a.type === 'draw' || a.type === 'recycle') return { from: 's', to: null, count: 0 };
  if (a.type === 'move') return { from: a.from, to: a.to, count: a.count || 1 };
  return null;
}

/** fetchHint asks the server for a hint of game id: {action | null, reason}; it throws ApiError. */
export function fetchHint(id) {
  return api('GET', `/api/v1/games/${encodeURIComponent(id)}/hint`);
}

/** clearMarks takes every hint mark off the table root. */
export function clearMarks(root) {
  for (const el of root.querySelectorAll('.hinted, .hint-from, .hint-to')) el.classList.remove('hinted', 'hint-from', 'hint-to');
}

/** paintMarks marks m on the table root; cards(pile, n) gives the top n face-up cards of a pile. */
export function paintMarks(root, m, cards) {
  const pile = (id) => root.querySelector(`[data-pile="${id}"]`);
  pile(m.from)?.classList.add('hint-from');
  for (const el of cards(m.from, m.count)) el.classList.add('hinted');
  if (m.to) pile(m.to)?.classList.add('hint-to');
}
