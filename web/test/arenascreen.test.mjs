// The arena's screen and its link, in the stand-in browser: the standings
// as the socket sends them (the top rows and the player's own far below,
// flames, racing and paused marks), the pairing and the idle pause told,
// the reconnection while the arena runs, and nothing left behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { install, FakeSocket } from './dom.mjs';
import { useCatalogue } from '../js/i18n.js';
import en from '../js/i18n/en.js';
import { ArenaMode, ArenaLink } from '../js/race/mode.js';

useCatalogue('en', en);

const none = { listeners: [], timers: [], frames: 0, sockets: [] };
const row = (rank, id, o = {}) => ({ rank, player: { id, name: id.toUpperCase() }, score: 60 - rank, races: 3, wins: 2, streak: 0, fire: false, playing: false, paused: false, ...o });
const view = (o = {}) => ({
  id: 'a1', status: 'running', startsAt: '2030-01-01T12:00:00Z', endsAt: '2030-01-01T12:30:00Z', now: '2030-01-01T12:10:00Z',
  minutes: 30, draw: 3, redeal: 'single', players: 80, races: 120, racesInPlay: 4,
  standings: [row(1, 'p1', { fire: true }), row(2, 'p2', { playing: true }), ...Array.from({ length: 48 }, (_, i) => row(i + 3, 'q' + i)), row(73, 'me', { paused: true })],
  you: { rank: 73, paused: true, idle: false }, ...o,
});

function setup(routes = {}) {
  const b = install({ 'GET /api/v1/arenas/a1': view(), ...routes });
  const m = b.mark();
  const told = [];
  const link = new ArenaLink('a1', { paired: (r) => told.push('paired ' + r), scored: (x) => told.push('scored ' + x.points) });
  link.start();
  const ws = FakeSocket.all.at(-1);
  ws.open();
  const mode = new ArenaMode({ me: { id: 'me' }, toast() {}, translate() {}, link: () => link, openArenaRace: (r) => told.push('open ' + r), toLobby() {} }, 'a1');
  return { b, m, link, ws, mode, told };
}

const q = (id) => document.querySelector(`[data-testid=${id}]`);
const send = (ws, m) => ws.onmessage({ data: JSON.stringify(m) });

test('the standings: my row far below the top ones, after a gap; flames, racing and paused marks', async () => {
  const { b, link, mode } = setup();
  await b.flush();
  assert.equal(q('arena-rules').textContent, '30 min · Draw 3 · Single pass');
  assert.equal(q('arena-count').textContent, '80 players · 120 races');
  const trs = document.querySelectorAll('[data-testid=arena-standings] tbody tr');
  assert.equal(trs.length, 52, '50 rows, the gap and mine');
  assert.equal(trs[50].className, 'agap');
  const mine = q('arena-me');
  assert.equal(trs[51], mine);
  assert.ok(mine.classList.contains('mine') && mine.classList.contains('paused'));
  assert.equal(mine.querySelector('.anm').textContent, 'ME (you)');
  assert.equal(mine.children[0].textContent, '73');
  assert.ok(mine.querySelector('[data-testid=paused]'));
  assert.ok(trs[0].querySelector('[data-testid=fire]'), 'a flame on the first row');
  assert.equal(trs[0].querySelector('[data-testid=fire]').getAttribute('aria-label'), 'On fire: the next win scores 4');
  assert.equal(document.querySelectorAll('[data-testid=fire]').length, 1);
  assert.ok(trs[1].querySelector('[data-testid=playing]'), 'a racing mark on the second');
  // paused (by Pause): Resume, no Pause, no Join
  assert.equal(q('arena-resume').hidden, false);
  assert.equal(q('arena-pause').hidden, true);
  assert.equal(q('arena-join').hidden, true);
  assert.equal(q('arena-paused').textContent, en.arena.paused);
  assert.equal(q('arena-podium').hidden, true);
  mode.dispose();
  link.close();
});

test('a pairing opens the race; a pause for an idle seat says so; the points of a race show', async () => {
  const { b, link, ws, mode, told } = setup({ 'GET /api/v1/arenas/a1': view({ standings: [row(1, 'me')], you: { rank: 1, paused: false } }), 'GET /api/v1/games/r9': { id: 'r9', status: 'over', seats: [{ player: { id: 'me', name: 'ME' } }, { player: { id: 'x', name: 'Xia' } }], result: { winner: 1, reason: 'resign', counts: [3, 1] } } });
  await b.flush();
  assert.equal(q('arena-pause').hidden, false);
  assert.equal(q('arena-status').textContent, en.arena.pairing);
  send(ws, { type: 'paired', race: 'r7' });
  assert.deepEqual(told, ['paired r7']);
  send(ws, { type: 'scored', race: 'r9', points: 4, score: 10 });
  await b.flush();
  assert.equal(q('arena-scored').hidden, false);
  assert.equal(q('arena-points').textContent, '+4 points');
  assert.equal(q('arena-result').textContent, 'You won! · Xia resigned.');
  send(ws, { type: 'paused', reason: 'idle' });
  assert.equal(q('arena-paused').hidden, false);
  assert.equal(q('arena-paused').textContent, en.arena.idle);
  assert.equal(q('arena-resume').hidden, false);
  mode.dispose();
  link.close();
});

test('the link reconnects while the arena runs, not once it is over; nothing is left behind', async () => {
  const { b, m, link, ws, mode } = setup();
  await b.flush();
  const n = FakeSocket.all.length;
  ws.readyState = 3;
  ws.onclose({ code: 1012 }); // a restart
  b.advance(600);
  assert.equal(FakeSocket.all.length, n + 1, 'a new socket');
  const ws2 = FakeSocket.all.at(-1);
  ws2.open();
  send(ws2, { type: 'arena', arena: view({ status: 'over', racesInPlay: 0 }) });
  ws2.readyState = 3;
  ws2.onclose({ code: 1000 });
  b.advance(20000);
  assert.equal(FakeSocket.all.length, n + 1, 'no socket after the end');
  mode.dispose();
  await b.flush();
  assert.equal(document.querySelector('[data-testid=arena]'), null);
  link.close();
  await b.flush();
  assert.deepEqual(b.leaks(m), none);
});
