// The modes' lifecycle (the first screen, a solo game, the lobby, a race):
// each mode, once disposed, leaves no listener on the page, no timer,
// interval or animation frame, and no open socket; and a key pressed once
// acts once after switching modes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { install, event, FakeSocket } from './dom.mjs';
import { useCatalogue } from '../js/i18n.js';
import en from '../js/i18n/en.js';
import { Scope } from '../js/scope.js';
import { SoloMode } from '../js/solo/mode.js';
import { RaceMode, LobbyMode } from '../js/race/mode.js';
import { HomeMode } from '../js/home.js';

useCatalogue('en', en);

const cols = (n, tops) => Array.from({ length: n }, (_, i) => ({ down: i, up: tops[i] ? [tops[i]] : [] }));
const soloView = (o = {}) => ({
  id: 'g1', kind: 'solo', seq: 0, status: 'playing', code: 'DS1-D1N-AAAAAAB', draw: 1, scoring: 'normal',
  score: 0, moves: 0, undo: 0, stock: 10, waste: ['7H'], foundations: Array.from({ length: 8 }, () => []),
  columns: cols(9, ['AS', '9C', '8H', 'KD', '2H', 'QS', '7D', '5C', 'TC']), ...o,
});
const raceView = (o = {}) => ({
  id: 'r1', kind: 'race', seq: 3, status: 'playing', draw: 1, redeal: 'unlimited', decks: 'independent', turns: 'simultaneous', turn: null, you: 1,
  foundations: Array.from({ length: 8 }, () => []), result: null,
  seats: [
    { player: { id: 'a', name: 'Ana' }, columns: cols(7, ['AS', '9C', '8H', '2H', 'QS', '7D', 'KD']), stock: 10, waste: ['4C'], count: 0, online: true },
    { player: { id: 'b', name: 'Bo' }, columns: cols(7, ['5S', '6D', '9D', '3C', '2C', 'TC', 'KH']), stock: 20, waste: [], count: 0, online: true },
  ],
  ...o,
});
const ui = (over = {}) => ({
  settings: { dblclick: true }, me: { id: 'a' },
  toast() {}, translate() {}, banner() {}, onBanner() {}, onWin() {}, openRace() {}, toLobby() {},
  ...over,
});
const none = { listeners: [], timers: [], frames: 0, sockets: [] };
const actions = (ws) => ws.sent.filter((m) => m.type === 'action').map((m) => m.action.type);

function soloGame(b, view = soloView()) {
  const mode = new SoloMode(document.querySelector('#table'), ui());
  mode.open(view);
  const ws = FakeSocket.all.at(-1);
  ws.open();
  return { mode, ws };
}

test('the leak check sees a listener, a timer and a socket left behind', async () => {
  const b = install();
  const m = b.mark();
  const s = new Scope();
  s.on(document, 'keydown', () => {});
  s.later(() => {}, 1000);
  document.addEventListener('keydown', () => {}); // not through the scope
  setInterval(() => {}, 1000);
  new WebSocket('ws://localhost/x');
  s.dispose();
  await b.flush();
  const l = b.leaks(m);
  assert.deepEqual(l.listeners, ['document keydown']);
  assert.equal(l.timers.length, 1);
  assert.deepEqual(l.sockets, ['ws://localhost/x']);
});

test('a solo game releases its listeners, timers, frames and socket', async () => {
  const b = install();
  const m = b.mark();
  const { mode, ws } = soloGame(b);
  assert.equal(document.body.dataset.ready, '1');
  // play: a key, a move that animates, a tap waiting for a second one, a resize
  b.key('d');
  assert.deepEqual(actions(ws), ['draw']);
  ws.onmessage({ data: JSON.stringify({ type: 'event', seq: 1, game: soloView({ seq: 1, stock: 9, waste: ['7H', '3D'], moves: 1 }) }) });
  assert.equal(document.body.dataset.seq, '1');
  dispatchEvent(event('resize', { bubbles: false }));
  b.advance(1000);
  b.tap(document.querySelector('#table [data-pile="c1"] .card.top'));
  const busy = b.leaks(m);
  assert.ok(busy.listeners.length >= 6 && busy.timers.length >= 1, JSON.stringify(busy));
  mode.dispose();
  await b.flush();
  assert.deepEqual(b.leaks(m), none);
  // the tap's single action was waiting: it never goes out
  b.advance(5000);
  assert.deepEqual(actions(ws), ['draw']);
});

test('a race releases its listeners, timers, frames, socket and screen', async () => {
  const b = install();
  const m = b.mark();
  const mode = new RaceMode(ui(), raceView({ status: 'waiting', seats: [raceView().seats[0], { player: null }] }));
  const ws = FakeSocket.all.at(-1);
  ws.open();
  assert.equal(document.body.dataset.status, 'waiting');
  ws.onmessage({ data: JSON.stringify({ type: 'state', seq: 4, game: raceView({ seq: 4 }) }) });
  assert.equal(document.body.dataset.status, 'playing');
  // play: a draw by the keyboard (shown at once), a tap on a card that goes up at once
  b.key('d');
  b.tap(document.querySelector('#race [data-board="me"] [data-pile="c1"] .card.top'));
  dispatchEvent(event('resize', { bubbles: false }));
  b.advance(300);
  assert.deepEqual(actions(ws), ['draw', 'tap']);
  // the opponent leaves: said aloud a moment later, and a countdown starts
  ws.onmessage({ data: JSON.stringify({ type: 'presence', seat: 2, online: false }) });
  assert.equal(document.querySelector('[data-testid=opp-offline]').hidden, false);
  assert.ok(b.leaks(m).timers.length >= 2);
  mode.dispose();
  await b.flush();
  assert.deepEqual(b.leaks(m), none);
  assert.equal(document.querySelector('#race'), null);
  assert.equal(document.querySelector('#dlg-result'), null);
});

test('the lobby releases its socket and its polling', async () => {
  const b = install({ 'GET /api/v1/lobby': { races: [{ id: 'x1', draw: 1, creator: { name: 'Ana' } }] } });
  const m = b.mark();
  const mode = new LobbyMode(ui());
  await b.flush();
  assert.equal(document.querySelectorAll('[data-testid=lobby-list] li[data-race]').length, 1);
  b.advance(4000);
  await b.flush();
  assert.equal(b.fetched.filter((f) => f === 'GET /api/v1/lobby').length, 2);
  mode.dispose();
  await b.flush();
  assert.deepEqual(b.leaks(m), none);
  assert.equal(document.querySelector('[data-testid=lobby]'), null);
  b.advance(10000);
  assert.equal(b.fetched.filter((f) => f === 'GET /api/v1/lobby').length, 2);
});

test('the first screen offers Continue when there is a game, and lets go of its buttons', async () => {
  const b = install({ 'GET /api/v1/games?status=playing': { games: [{ id: 'g1', kind: 'solo', status: 'playing', code: 'DS1-D1N-AAAAAAB' }] } });
  const m = b.mark();
  const calls = [];
  const hooks = Object.fromEntries(['play', 'resume', 'options', 'help', 'prefs'].map((k) => [k, () => calls.push(k)]));
  const mode = new HomeMode({ settings: { draw: 3, scoring: 'vegas' }, ...hooks });
  await b.flush();
  const q = (id) => document.querySelector(`[data-testid=${id}]`);
  assert.equal(document.body.dataset.mode, 'home');
  assert.equal(q('home').hidden, false);
  assert.equal(q('continue').hidden, false);
  assert.equal(q('continue-count').textContent, '1');
  assert.equal(q('play-mode').textContent, 'Hard: draw 3 · Vegas');
  for (const id of ['play', 'continue', 'home-new', 'home-help', 'home-settings']) q(id).click();
  assert.deepEqual(calls, ['play', 'resume', 'options', 'help', 'prefs']);
  mode.dispose();
  await b.flush();
  assert.deepEqual(b.leaks(m), none);
  assert.equal(q('home').hidden, true);
  q('play').click();
  assert.equal(calls.length, 5);
});

test('one key acts once after switching modes and back twice', async () => {
  const b = install({ 'GET /api/v1/lobby': { races: [] } });
  const m = b.mark();
  let mode = null;
  const use = (make) => { mode?.dispose(); mode = make(); };
  const sockets = [];
  for (let i = 0; i < 2; i++) {
    use(() => new HomeMode(ui({ play() {}, resume() {}, options() {}, help() {}, prefs() {} })));
    await b.flush();
    use(() => soloGame(b).mode);
    sockets.push(FakeSocket.all.at(-1));
    use(() => new LobbyMode(ui()));
    await b.flush();
    use(() => new RaceMode(ui(), raceView()));
    FakeSocket.all.at(-1).open();
    sockets.push(FakeSocket.all.at(-1));
  }
  use(() => soloGame(b).mode);
  const ws = FakeSocket.all.at(-1);
  b.key('d');
  assert.deepEqual(actions(ws), ['draw']);
  for (const s of sockets) assert.deepEqual(actions(s), [], s.url);
  mode.dispose();
  await b.flush();
  assert.deepEqual(b.leaks(m), none);
});
