import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as A from '../js/race/arenamodel.js';
import { useCatalogue } from '../js/i18n.js';
import en from '../js/i18n/en.js';
import pl from '../js/i18n/pl.js';

useCatalogue('en', en);

const T0 = Date.parse('2030-01-01T12:00:00Z');
const iso = (ms) => new Date(ms).toISOString();
const arena = (o = {}) => ({
  id: 'a1', status: 'waiting', startsAt: iso(T0 + 60e3), endsAt: iso(T0 + 31 * 60e3), now: iso(T0),
  minutes: 30, draw: 1, redeal: 'unlimited', players: 3, races: 0, racesInPlay: 0, standings: [], ...o,
});
const row = (rank, id, o = {}) => ({ rank, player: { id, name: id.toUpperCase() }, score: 0, races: 1, wins: 0, streak: 0, fire: false, playing: false, paused: false, ...o });

test('the server clock: how far it runs ahead of this one', () => {
  assert.equal(A.serverOffset(arena(), T0 - 1500), 1500);
  assert.equal(A.serverOffset(arena(), T0 + 200), -200);
  assert.equal(A.serverOffset({}, T0), 0);
});

test('the phase and countdown: to the start, to the end, over', () => {
  const cases = [
    { name: 'waiting', v: arena(), now: T0, want: { status: 'waiting', left: 60 } },
    { name: 'waiting, its start passed since the view', v: arena(), now: T0 + 61e3, want: { status: 'running', left: 1799 } },
    { name: 'running', v: arena({ status: 'running' }), now: T0 + 30 * 60e3, want: { status: 'running', left: 60 } },
    { name: 'running, its end passed', v: arena({ status: 'running' }), now: T0 + 32 * 60e3, want: { status: 'over', left: 0 } },
    { name: 'a waiting view long after its end', v: arena(), now: T0 + 40 * 60e3, want: { status: 'over', left: 0 } },
    { name: 'over', v: arena({ status: 'over' }), now: T0, want: { status: 'over', left: 0 } },
  ];
  for (const c of cases) assert.deepEqual(A.phase(c.v, c.now), c.want, c.name);
});

test('the countdown in words, rounded up', () => {
  assert.equal(A.clockText({ status: 'waiting', left: 41.2 }), 'Starts in 0:42');
  assert.equal(A.clockText({ status: 'running', left: 725 }), 'Ends in 12:05');
  assert.equal(A.clockText({ status: 'over', left: 0 }), 'Over');
});

test('the settings in words', () => {
  assert.equal(A.rules(arena()), '30 min · Draw 1 · Unlimited passes');
  assert.equal(A.rules(arena({ minutes: 5, draw: 3, redeal: 'single' })), '5 min · Draw 3 · Single pass');
});

test('standings rows: my row marked, a gap before a row that does not follow', () => {
  const top = Array.from({ length: 50 }, (_, i) => row(i + 1, 'p' + (i + 1)));
  const got = A.rows([...top, row(73, 'me')], 'me');
  assert.equal(got.length, 51);
  assert.deepEqual(got.filter((r) => r.mine).map((r) => r.row.rank), [73]);
  assert.deepEqual(got.filter((r) => r.gap).map((r) => r.row.rank), [73]);
  const inTop = A.rows([row(1, 'x'), row(2, 'me'), row(3, 'y')], 'me');
  assert.deepEqual(inTop.map((r) => [r.mine, r.gap]), [[false, false], [true, false], [false, false]]);
  assert.deepEqual(A.rows([row(1, 'x')], null).map((r) => r.mine), [false], 'a spectator has no row');
  assert.deepEqual(A.rows(undefined, 'me'), []);
});

test('the podium: the first three once over and counted', () => {
  const st = [row(1, 'a', { score: 8 }), row(2, 'b', { score: 4 }), row(3, 'c', { score: 2 }), row(4, 'd')];
  assert.deepEqual(A.podium(arena({ status: 'over', standings: st })).map((r) => r.player.id), ['a', 'b', 'c']);
  assert.deepEqual(A.podium(arena({ status: 'running', standings: st })), [], 'not before the end');
  assert.deepEqual(A.podium(arena({ status: 'over', racesInPlay: 1, standings: st })), [], 'not while races still count');
  assert.deepEqual(A.podium(arena({ status: 'over', standings: [row(1, 'a'), row(2, 'b', { races: 0 })] })).map((r) => r.player.id), ['a'], 'no one who never raced');
});

test('points in words, with each language\'s plural', () => {
  assert.equal(A.pointsText(2), '+2 points');
  assert.equal(A.pointsText(1), '+1 point');
  assert.equal(A.pointsText(0), '+0 points');
  useCatalogue('pl', pl);
  assert.equal(A.pointsText(2), '+2 punkty');
  assert.equal(A.pointsText(5), '+5 punktów');
  useCatalogue('en', en);
});

test('the lobby\'s order: running, then upcoming by start, then over', () => {
  const vs = [
    arena({ id: 'over', status: 'over', startsAt: iso(T0 - 40 * 60e3), endsAt: iso(T0 - 60e3) }),
    arena({ id: 'later', startsAt: iso(T0 + 600e3) }),
    arena({ id: 'soon' }),
    arena({ id: 'run', status: 'running', startsAt: iso(T0 - 60e3) }),
  ];
  assert.deepEqual(A.listed(vs, T0).map((v) => v.id), ['run', 'soon', 'later', 'over']);
  assert.deepEqual(A.listed(undefined, T0), []);
});
