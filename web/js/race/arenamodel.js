// Arenas without the page: the server's clock, an arena's phase and
// countdown, its settings in words, the rows of its standings and its
// podium. arena.js (the screen), arenalink.js (its socket) and the lobby use
// them.
import { t, countdown } from '../i18n.js';

/** serverOffset is how far the server's clock (v.now) runs ahead of this one, in ms, for a view received at received (ms). */
export function serverOffset(v, received) {
  const now = Date.parse(v?.now);
  return Number.isFinite(now) ? now - received : 0;
}

/**
 * phase is where arena v stands at the server's time now (ms): {status,
 * left} where status is 'waiting', 'running' or 'over' (a view a little old
 * moves on at its startsAt and endsAt) and left the seconds to the start
 * (waiting) or to the end (running); 0 once over.
 */
export function phase(v, now) {
  const start = Date.parse(v.startsAt), end = Date.parse(v.endsAt);
  let status = v.status;
  if (status === 'waiting' && now >= start) status = 'running';
  if (status === 'running' && now >= end) status = 'over';
  const left = status === 'waiting' ? (start - now) / 1000 : status === 'running' ? (end - now) / 1000 : 0;
  return { status, left: Math.max(0, left) };
}

/** clockText writes an arena's countdown: "Starts in 0:42", "Ends in 12:05", "Over". */
export function clockText(p) {
  if (p.status === 'waiting') return t('arena.startsIn', { time: countdown(p.left) });
  if (p.status === 'running') return t('arena.endsIn', { time: countdown(p.left) });
  return t('arena.over');
}

/** rules writes an arena's settings in a few words: "30 min · Draw 1 · Single pass". */
export function rules(v) {
  const parts = [t('arena.minutes', { n: v.minutes }), t(v.draw === 3 ? 'race.d3' : 'race.d1')];
  parts.push(t(v.redeal === 'single' ? 'race.single' : 'arena.unlimited'));
  return parts.join(' · ');
}

/**
 * rows lays out standings for player me: each {row, mine, gap}, gap on a
 * row that does not follow the one above it (the socket sends the top rows
 * and the player's own one, however far down).
 */
export function rows(standings, me) {
  return (standings || []).map((row, i, all) => ({
    row,
    mine: !!me && row.player?.id === me,
    gap: i > 0 && row.rank > all[i - 1].rank + 1,
  }));
}

/** podium is the first three of an arena that is over and whose last races counted: [] before. */
export function podium(v) {
  if (v?.status !== 'over' || v.racesInPlay > 0) return [];
  return (v.standings || []).slice(0, 3).filter((r) => r.races > 0);
}

/** pointsText writes the points a race scored: "+2 points". */
export function pointsText(n) {
  return t('arena.plus', { n });
}

/** listed keeps the arenas a lobby shows, soonest first: the upcoming and running ones, then those just over. */
export function listed(arenas, now) {
  const order = { running: 0, waiting: 1, over: 2 };
  return (arenas || []).map((v) => ({ v, p: phase(v, now) }))
    .sort((a, b) => order[a.p.status] - order[b.p.status] || Date.parse(a.v.startsAt) - Date.parse(b.v.startsAt))
    .map(({ v }) => v);
}
