import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as M from '../js/race/model.js';
import { raceLayout } from '../js/race/layout.js';
import { columnSteps, RATIO, TALL } from '../js/layout.js';

const cols = (tops) => tops.map((up, i) => ({ down: i, up }));
const view = (o = {}) => ({
  id: 'r', kind: 'race', draw: 1, redeal: 'unlimited', decks: 'independent', turns: 'simultaneous', status: 'playing', seq: 5, turn: null, you: 1,
  foundations: [[{ card: 'AS', seat: 1 }], [], [{ card: 'AH', seat: 2 }], [], [], [], [], []],
  seats: [
    { player: { id: 'a', name: 'Ana' }, columns: cols([['2S'], ['KD'], ['9C', '8H'], ['2H'], ['QS'], ['7D'], ['AS']]), stock: 10, waste: ['4C', 'JH'], count: 1, online: true, blocked: false },
    { player: { id: 'b', name: 'Bo' }, columns: cols([['5S'], ['6D'], ['9D'], ['3C'], ['2H'], ['TC'], ['KH']]), stock: 20, waste: [], count: 1, online: true, blocked: false },
  ],
  result: null,
  ...o,
});

test('the viewer seat: you, null for spectators, else by player id', () => {
  assert.equal(M.mySeat(view(), 'zz'), 1);
  assert.equal(M.mySeat(view({ you: null }), 'a'), null);
  assert.equal(M.mySeat(view({ you: undefined }), 'b'), 2);
  assert.equal(M.mySeat(view({ you: undefined }), 'zz'), null);
});

test('counts from the seats, else from foundation owners', () => {
  assert.deepEqual(M.counts(view()), [1, 1]);
  const v = view();
  delete v.seats[0].count; delete v.seats[1].count;
  v.foundations[0].push({ card: '2S', seat: 2 });
  assert.deepEqual(M.counts(v), [1, 2]);
  assert.deepEqual(M.counts(view({ status: 'over', result: { winner: 1, reason: 'out', counts: [52, 40] } })), [52, 40]);
});

test('outcome and the tie-break explained', () => {
  const r = (result, you = 1) => M.outcome(view({ status: 'over', result, you }), you);
  assert.deepEqual(r({ winner: 1, reason: 'blocked', counts: [20, 12] }), { who: 'me', reason: 'blocked', tiebreak: null, mine: 20, theirs: 12 });
  assert.deepEqual(r({ winner: 2, reason: 'blocked', counts: [20, 20] }), { who: 'them', reason: 'blocked', tiebreak: 'last', mine: 20, theirs: 20 });
  assert.deepEqual(r({ winner: 1, reason: 'out', counts: [52, 52] }), { who: 'me', reason: 'out', tiebreak: 'last', mine: 52, theirs: 52 });
  assert.deepEqual(r({ winner: null, reason: 'blocked', counts: [0, 0] }), { who: 'draw', reason: 'blocked', tiebreak: 'none', mine: 0, theirs: 0 });
  assert.equal(r({ winner: 1, reason: 'out', counts: [52, 55] }).tiebreak, 'bonus');
  assert.equal(r({ winner: 2, reason: 'resign', counts: [30, 3] }).tiebreak, null);
  assert.equal(r({ winner: 2, reason: 'forfeit', counts: [9, 9] }).tiebreak, null);
  // seat 2's side, and a spectator's
  assert.deepEqual(r({ winner: 2, reason: 'blocked', counts: [7, 9] }, 2), { who: 'me', reason: 'blocked', tiebreak: null, mine: 9, theirs: 7 });
  assert.equal(r({ winner: 2, reason: 'blocked', counts: [7, 9] }, null).who, 2);
  assert.equal(M.outcome(view(), 1), null);
});

test('deadlines', () => {
  assert.equal(M.secondsLeft(10_500, 10_000), 1);
  assert.equal(M.secondsLeft(5_000, 10_000), 0);
  assert.equal(M.secondsLeft(null, 1), null);
  assert.equal(M.toMillis('1970-01-01T00:01:00Z'), 60_000);
  assert.equal(M.toMillis(1_700_000_000), 1_700_000_000_000);
  assert.equal(M.toMillis(1_700_000_000_123), 1_700_000_000_123);
  assert.equal(M.toMillis('soon'), null);
  assert.equal(M.claimDeadline({ offlineSince: 1000 }), 61_000);
  assert.equal(M.claimDeadline({ offlineSince: 1000, graceSeconds: 30 }), 31_000);
  assert.equal(M.claimDeadline({ offlineSince: 1000, claimAt: 5 }), 5000);
  assert.equal(M.claimDeadline({}), null);
  assert.equal(M.turnDeadline({ turnClock: 20 }, 1000), 21_000);
  assert.equal(M.turnDeadline({ turnDeadline: '1970-01-01T00:00:02Z', turnClock: 20 }, 1000), 2000);
  assert.equal(M.turnDeadline({}, 1000), null);
});

test('lobby lists: normalised and diffed by id', () => {
  assert.deepEqual(M.lobbyRaces({ races: [{ id: 1 }, { x: 1 }] }), [{ id: '1' }]);
  assert.deepEqual(M.lobbyRaces([{ id: 'a' }]), [{ id: 'a' }]);
  assert.deepEqual(M.lobbyRaces(null), []);
  const a = [{ id: 'a', draw: 1, creator: { name: 'X' } }, { id: 'b', draw: 3 }];
  const b = [{ id: 'c', draw: 1 }, { id: 'a', draw: 3, creator: { name: 'X' } }];
  assert.deepEqual(M.diffLobby(a, b), { add: ['c'], remove: ['b'], update: ['a'], order: ['c', 'a'] });
  assert.deepEqual(M.diffLobby(a, a), { add: [], remove: [], update: [], order: ['a', 'b'] });
  assert.equal(M.hostName({ seats: [{ player: { name: 'Z' } }] }), 'Z');
});

test('series', () => {
  assert.equal(M.seriesInfo(view()), null);
  assert.equal(M.seriesInfo(view({ series: { length: 1 } })), null);
  assert.deepEqual(M.seriesInfo(view({ series: { length: 3, game: 2, totals: [40, 31] } })), { game: 2, of: 3, totals: [40, 31], wins: null, done: false, winner: null });
  assert.equal(M.seriesLength(5), 5);
});

test('local moves: foundations, columns, taps, recycle', () => {
  const v = view();
  // 2S from c1 to the foundation: lands on AS (seat 1) and counts
  let n = M.applyLocal(v, 1, { type: 'tap', from: 'c1' });
  assert.deepEqual(n.foundations[0].map((e) => e.card), ['AS', '2S']);
  assert.equal(n.seats[0].count, 2);
  assert.deepEqual(n.seats[0].columns[0], { down: 0, up: [] });
  assert.deepEqual(v.seats[0].columns[0].up, ['2S'], 'the confirmed view is untouched');
  // 2H onto the opponent's AH
  n = M.applyLocal(v, 1, { type: 'move', from: 'c4', to: 'f' });
  assert.deepEqual(n.foundations[2], [{ card: 'AH', seat: 2 }, { card: '2H', seat: 1 }]);
  // the second ace of spades opens the second spade slot; the wrong slot is refused
  assert.equal(M.applyLocal(v, 1, { type: 'move', from: 'c7', to: 'f' }).foundations[1][0].card, 'AS');
  assert.equal(M.applyLocal(v, 1, { type: 'move', from: 'c7', to: 'f3' }), null);
  // a run onto a column, a face-down card stays down until the server says
  n = M.applyLocal(v, 1, { type: 'move', from: 'c3', count: 2, to: 'c6' });
  assert.equal(n, null, '9C does not go on 7D');
  assert.equal(M.applyLocal(v, 1, { type: 'move', from: 'c2', to: 'c1' }), null, 'a king only to an empty column');
});

test('local moves: legal column builds and double taps', () => {
  const v = view();
  v.seats[0].waste = ['JH'];
  let n = M.applyLocal(v, 1, { type: 'move', from: 'w', to: 'c5' });
  assert.deepEqual(n.seats[0].columns[4].up, ['QS', 'JH']);
  assert.deepEqual(n.seats[0].waste, []);
  v.seats[0].columns[5] = { down: 2, up: ['TD'] };
  n = M.applyLocal(v, 1, { type: 'move', from: 'c3', count: 2, to: 'c6' });
  assert.deepEqual(n.seats[0].columns[5].up, ['TD', '9C', '8H']);
  assert.deepEqual(n.seats[0].columns[2], { down: 2, up: [] });
  // double tap picks the fullest accepting column (c6 has 3 cards, c2 … none accept 8H? KD no)
  n = M.applyLocal(v, 1, { type: 'dtap', from: 'c3', count: 2 });
  assert.deepEqual(n.seats[0].columns[5].up, ['TD', '9C', '8H']);
  // kings to empty columns only
  v.seats[0].columns[0] = { down: 0, up: [] };
  n = M.applyLocal(v, 1, { type: 'move', from: 'c2', to: 'c1' });
  assert.deepEqual(n.seats[0].columns[0].up, ['KD']);
  assert.equal(M.applyLocal(v, 1, { type: 'move', from: 'c5', to: 'c1' }), null);
});

test('local moves: what the client cannot or may not show', () => {
  const v = view();
  assert.equal(M.applyLocal(v, 1, { type: 'draw' }), null);
  assert.equal(M.applyLocal(v, 1, { type: 'pass' }), null);
  assert.equal(M.applyLocal(v, null, { type: 'tap', from: 'c1' }), null);
  assert.equal(M.applyLocal(view({ status: 'over' }), 1, { type: 'tap', from: 'c1' }), null);
  assert.equal(M.applyLocal(view({ turns: 'alternating', turn: 2 }), 1, { type: 'tap', from: 'c1' }), null);
  assert.ok(M.applyLocal(view({ turns: 'alternating', turn: 1 }), 1, { type: 'tap', from: 'c1' }));
  const e = view();
  e.seats[0].stock = 0;
  assert.deepEqual(M.applyLocal(e, 1, { type: 'recycle' }).seats[0], { ...e.seats[0], stock: 2, waste: [] });
  e.redeal = 'single';
  assert.equal(M.applyLocal(e, 1, { type: 'recycle' }), null);
});

test('foundation growth for the opponent animation', () => {
  const a = view();
  const b = M.applyLocal(a, 1, { type: 'tap', from: 'c1' });
  assert.deepEqual(M.grownFoundations(a, b), [{ slot: 0, card: '2S', seat: 1 }]);
  assert.deepEqual(M.grownFoundations(a, a), []);
});

test('race layout: phone portrait and desktop', () => {
  const p = raceLayout({ width: 390, height: 720, draw: 3 });
  assert.ok(p.portrait);
  assert.ok(7 * p.me.cw + 6 * p.me.gap + 2 * p.pad <= 390, JSON.stringify(p.me));
  assert.ok(p.me.cw >= 44, String(p.me.cw));
  assert.ok(8 * p.f.cw + 7 * p.f.gap + 6 * p.f.gap + 2 * p.pad <= 390, 'eight foundations in a row');
  assert.ok(8 * p.opp.cw + 7 * p.opp.gap + 2 * p.pad <= 390 - 60, 'opponent board leaves room for the name');
  assert.ok(p.opp.cw < p.me.cw);
  const used = p.oppH + p.f.ch + p.me.ch + 4 * p.me.ch + 6 * p.pad;
  assert.ok(used <= 720, String(used));

  const d = raceLayout({ width: 1440, height: 790 });
  assert.ok(!d.portrait);
  assert.ok(d.me.cw >= 90, String(d.me.cw));
  assert.ok(4 * d.f.ch + 3 * d.f.gap <= 790 - 2 * d.pad);
  assert.ok(d.oppH + 3.5 * d.me.ch <= 790);
  assert.ok(9 * d.me.cw + 8 * d.me.gap + 2 * d.f.cw + 4 * d.pad <= 1440);
});

test('race layout: a phone held upright gets taller cards while my long columns still read', () => {
  // the race table of a 390×844 and a 375×667 phone (less the HUD and the strip)
  for (const [width, height, tall] of [[390, 760, true], [375, 583, false]]) {
    const L = raceLayout({ width, height });
    assert.equal(L.me.ch > Math.round(L.me.cw * RATIO), tall, JSON.stringify([width, height, L.me]));
    assert.ok(L.me.ch <= Math.round(L.me.cw * TALL) && L.opp.ch / L.opp.cw <= TALL + 0.05);
    // my columns' height: the table less its pads, the opponent, the foundations and my stock row
    const colH = height - 4 * L.pad - L.oppH - L.f.ch - L.me.ch - L.me.gap;
    const s = columnSteps(6, 13, L.me, colH - L.me.badge);
    assert.ok(6 * s.down + 12 * s.up + L.me.ch + L.me.badge <= colH, JSON.stringify([width, height, s]));
    // the index (36% of the card width) of a card under another shows whole
    assert.ok(s.up >= Math.ceil(L.me.cw * 0.36 * 1.05), `${width}×${height}: ${s.up}px steps`);
  }
  // a short window and a landscape one: the standard card
  for (const area of [{ width: 390, height: 540 }, { width: 1440, height: 790 }]) {
    const d = raceLayout(area);
    assert.equal(d.me.ch, Math.round(d.me.cw * RATIO), JSON.stringify([area, d.me]));
  }
});

test('cancelled: over, no result, flagged', () => {
  assert.equal(M.cancelled({ status: 'over', result: null, cancelled: true }), true);
  assert.equal(M.cancelled({ status: 'over', result: { winner: 1 }, cancelled: true }), false);
  assert.equal(M.cancelled({ status: 'over', result: null }), false);
  assert.equal(M.cancelled({ status: 'waiting', cancelled: true }), false);
  assert.equal(M.cancelled(null), false);
});

test('the race table: the opponent\'s board on top, the foundations and mine below, laid out as raceLayout says', async () => {
  const { install } = await import('./dom.mjs');
  const { mountBoards, layoutBoards } = await import('../js/race/table.js');
  install();
  const table = document.createElement('main');
  const play = document.createElement('div');
  table.append(play);
  const { opp, found, board } = mountBoards(table, play);
  assert.deepEqual([...table.children], [opp, play]);
  assert.deepEqual([...play.children], [found, board]);
  assert.equal(opp.dataset.board, 'opp');
  assert.equal(board.dataset.board, 'me');
  assert.equal(found.dataset.pile, 'f');
  assert.equal(board.querySelectorAll('[data-pile^=c]').length, 7);
  const L = layoutBoards(table, 3);
  assert.deepEqual(L, raceLayout({ width: table.clientWidth, height: table.clientHeight, draw: 3 }));
  assert.equal(table.classList.contains('portrait'), L.portrait);
  assert.equal(table.style['--pad'], L.pad + 'px');
  assert.equal(table.style['--oppH'], L.oppH + 'px');
});
