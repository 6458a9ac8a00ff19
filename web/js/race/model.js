// Race view helpers: seats, counts, the result explained, deadlines, the
// lobby list, and the local (optimistic) effect of one of my actions. Pure.
import { SUITS, rankOf } from '../cards.js';
import { dtapColumn, takes } from '../rules.js';

/** mySeat is the viewer's seat (1 or 2), or null for a spectator. */
export function mySeat(v, meId) {
  if (!v) return null;
  if (v.you === 1 || v.you === 2) return v.you;
  if (v.you === null) return null;
  const i = (v.seats || []).findIndex((s) => s?.player?.id && s.player.id === meId);
  return i >= 0 ? i + 1 : null;
}

/** cardOf reads a foundation entry: {"card","seat"} or a plain card text. */
export const cardOf = (e) => (typeof e === 'string' ? e : e?.card);
export const seatOf = (e) => (typeof e === 'string' ? null : e?.seat ?? null);

/** counts returns [seat 1, seat 2] cards on the foundations. */
export function counts(v) {
  if (v?.result?.counts?.length === 2 && v.status === 'over') return v.result.counts.slice();
  const n = [0, 0];
  for (const f of v?.foundations || []) for (const e of f) { const s = seatOf(e); if (s === 1 || s === 2) n[s - 1]++; }
  const s = v?.seats || [];
  return [0, 1].map((i) => (typeof s[i]?.count === 'number' ? s[i].count : n[i]));
}

/** cancelled tells a race its creator cancelled while it waited: over, no result. */
export const cancelled = (v) => v?.status === 'over' && !v.result && !!v.cancelled;

/**
 * outcome explains a finished race from the viewer's side:
 * {who: 'me'|'them'|'draw'|1|2, reason, tiebreak: null|'last'|'none'|'bonus', mine, theirs}.
 * For a spectator (me null) who is the winning seat and mine/theirs are seats 1/2.
 */
export function outcome(v, me) {
  const r = v?.result;
  if (!r) return null;
  const c = r.counts?.length === 2 ? r.counts : counts(v);
  const w = r.winner ?? null;
  const reason = r.reason || 'out';
  let tiebreak = null;
  if (w == null) tiebreak = c[0] === c[1] ? 'none' : null;
  else if (reason === 'out' || reason === 'blocked') {
    if (c[0] === c[1]) tiebreak = 'last';
    else if (c[w - 1] < c[2 - w]) tiebreak = 'bonus';
  }
  const viewer = me === 1 || me === 2 ? me : null;
  const who = w == null ? 'draw' : viewer ? (w === viewer ? 'me' : 'them') : w;
  return {
    who, reason, tiebreak,
    mine: viewer ? c[viewer - 1] : c[0],
    theirs: viewer ? c[2 - viewer] : c[1],
  };
}

/** toMillis reads a time: epoch ms, epoch seconds, or an ISO string. */
export function toMillis(x) {
  if (x == null || x === '') return null;
  if (typeof x === 'number') return x > 1e12 ? x : x * 1000;
  const n = Date.parse(x);
  return Number.isNaN(n) ? null : n;
}

/** secondsLeft counts whole seconds (rounded up) until deadline, never below 0. */
export function secondsLeft(deadline, now) {
  if (deadline == null) return null;
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

export const GRACE = 60;

/**
 * claimDeadline: when the viewer may claim the win after the opponent dropped.
 * Uses claimAt (view or presence) if given, else offlineSince + graceSeconds.
 */
export function claimDeadline({ claimAt, graceSeconds, offlineSince }) {
  const at = toMillis(claimAt);
  if (at != null) return at;
  if (offlineSince == null) return null;
  return offlineSince + 1000 * (Number.isFinite(graceSeconds) && graceSeconds >= 0 ? graceSeconds : GRACE);
}

/** turnDeadline: end of the current turn from turnDeadline, or turnClock seconds counted from `received`. */
export function turnDeadline(v, received) {
  const at = toMillis(v?.turnDeadline);
  if (at != null) return at;
  if (typeof v?.turnClock === 'number' && received != null) return received + v.turnClock * 1000;
  return null;
}

/** lobbyRaces normalises a lobby answer ({races:[…]} or […]) to a list with ids. */
export function lobbyRaces(r) {
  const list = Array.isArray(r) ? r : Array.isArray(r?.races) ? r.races : [];
  return list.filter((x) => x && x.id != null).map((x) => ({ ...x, id: String(x.id) }));
}

/** hostName: who created an open race. */
export const hostName = (r) => r.creator?.name ?? r.host?.name ?? r.seats?.[0]?.player?.name ?? r.player?.name ?? '';

const lobbyKey = (r) => JSON.stringify([hostName(r), r.creatorRating, r.draw, r.redeal, r.decks, r.turns, r.soloOutBonus, r.series, r.bot, r.chosenDeal]);

/** diffLobby compares two lobby lists by id: {add, remove, update, order}. */
export function diffLobby(a, b) {
  const old = new Map(a.map((r) => [r.id, r]));
  const now = new Set(b.map((r) => r.id));
  return {
    add: b.filter((r) => !old.has(r.id)).map((r) => r.id),
    remove: a.filter((r) => !now.has(r.id)).map((r) => r.id),
    update: b.filter((r) => old.has(r.id) && lobbyKey(old.get(r.id)) !== lobbyKey(r)).map((r) => r.id),
    order: b.map((r) => r.id),
  };
}

/** seriesLength reads the agreed number of games (a number or {length|games|of}). */
export function seriesLength(s) {
  if (typeof s === 'number') return s;
  if (!s || typeof s !== 'object') return 1;
  const n = [s.length, s.of, s.total, typeof s.games === 'number' ? s.games : null].find((x) => typeof x === 'number');
  return n || 1;
}

/** seriesInfo: {game, of, totals:[seat1, seat2]|null, wins:[…]|null} or null when no series. */
export function seriesInfo(v) {
  const s = v?.series;
  const of = seriesLength(s);
  if (!s || typeof s !== 'object' || of <= 1) return null;
  const game = s.game ?? s.index ?? s.number ?? (Array.isArray(s.games) ? s.games.length : null);
  const totals = Array.isArray(s.totals) ? s.totals : Array.isArray(s.scores) ? s.scores : null;
  const wins = Array.isArray(s.wins) ? s.wins : null;
  return { game, of, totals, wins, done: !!(s.over ?? s.done ?? s.finished), winner: s.winner ?? null };
}

// ---- my own board as a small solo-like view (for taps and local moves) ----

/** boardView presents one seat's board with the shared foundations as plain cards. */
export function boardView(v, seat) {
  const b = v.seats[seat - 1];
  return {
    id: v.id, draw: v.draw, stock: b.stock, waste: b.waste, columns: b.columns,
    scoring: v.redeal === 'single' ? 'vegas' : 'normal',
    foundations: v.foundations.map((f) => f.map(cardOf)),
  };
}

/** foundationFor returns the index (0–7) of the first slot that takes card, or -1. */
export function foundationFor(v, card, only) {
  const row = SUITS.indexOf(card[1]);
  for (const i of [2 * row, 2 * row + 1]) {
    if (only != null && i !== only) continue;
    const f = v.foundations[i];
    if (f.length === rankOf(card) - 1 && (f.length === 0 || cardOf(f[f.length - 1])[1] === card[1])) return i;
  }
  return -1;
}

const clone = (v) => ({
  ...v,
  foundations: v.foundations.map((f) => f.slice()),
  seats: v.seats.map((s) => s && { ...s, waste: s.waste.slice(), columns: s.columns.map((c) => ({ down: c.down, up: c.up.slice() })) }),
});

/**
 * applyLocal returns the view after my action as far as the client can know it,
 * or null when it cannot tell (a draw shows unknown cards) or the action looks illegal.
 * A face-down card exposed by a move stays face down until the server answers.
 */
export function applyLocal(v, seat, a) {
  if (!v || v.status !== 'playing' || !(seat === 1 || seat === 2) || !v.seats?.[seat - 1]) return null;
  if (v.turns === 'alternating' && v.turn != null && v.turn !== seat) return null;
  const n = clone(v);
  const b = n.seats[seat - 1];
  if (a.type === 'recycle') {
    if (b.stock > 0 || !b.waste.length || v.redeal === 'single') return null;
    b.stock = b.waste.length;
    b.waste = [];
    return n;
  }
  let from = a.from, count = a.count || 1, to = a.to;
  let run;
  if (from === 'w') {
    if (!b.waste.length || count !== 1) return null;
    run = [b.waste[b.waste.length - 1]];
  } else if (/^c[1-7]$/.test(from || '')) {
    const c = b.columns[+from.slice(1) - 1];
    if (!c || count < 1 || count > c.up.length) return null;
    run = c.up.slice(c.up.length - count);
  } else return null;
  if (a.type === 'tap') {
    if (count !== 1) return null;
    to = 'f';
  } else if (a.type === 'dtap') {
    const i = dtapColumn(b, from, run[0]);
    if (i < 0) return null;
    to = 'c' + (i + 1);
  } else if (a.type !== 'move') return null;
  if (to === 'f' || /^f[1-8]$/.test(to || '')) {
    if (run.length !== 1) return null;
    const i = foundationFor(n, run[0], to === 'f' ? null : +to.slice(1) - 1);
    if (i < 0) return null;
    n.foundations[i].push({ card: run[0], seat });
    if (typeof b.count === 'number') b.count++;
  } else if (/^c[1-7]$/.test(to || '') && to !== from) {
    const i = +to.slice(1) - 1;
    if (!takes(b, i, run[0])) return null;
    b.columns[i].up.push(...run);
  } else return null;
  if (from === 'w') b.waste.pop();
  else b.columns[+from.slice(1) - 1].up.splice(-count, count);
  n.seq = v.seq;
  return n;
}

/** grownFoundations lists foundation slots whose top changed from a to b: [{slot, card, seat}]. */
export function grownFoundations(a, b) {
  const out = [];
  if (!a || !b || a.id !== b.id) return out;
  b.foundations.forEach((f, i) => {
    const p = a.foundations[i] || [];
    for (let k = p.length; k < f.length; k++) out.push({ slot: i, card: cardOf(f[k]), seat: seatOf(f[k]) });
  });
  return out;
}

