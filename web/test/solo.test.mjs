// The solo table answers at once: a tap that sends a card to a foundation
// shows it there before anything goes out, a second tap turns it into one
// double tap, and the screen ends as the server says (a refused move goes back).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { install, FakeSocket } from './dom.mjs';
import { useCatalogue } from '../js/i18n.js';
import en from '../js/i18n/en.js';
import { SoloMode } from '../js/solo/mode.js';
import { DOUBLE_MS } from '../js/gesture.js';

useCatalogue('en', en);

const cols = (tops) => tops.map((c, i) => ({ down: i, up: c ? [c] : [] }));
const TOPS = ['AS', '9C', '8H', 'KD', '2H', 'QS', '7D', '5C', 'TC'];
const view = (o = {}) => ({
  id: 'g1', kind: 'solo', seq: 0, status: 'playing', code: 'DS1-D1N-AAAAAAB', draw: 1, scoring: 'normal',
  score: 0, moves: 0, undo: 0, stock: 10, waste: ['7H'], foundations: Array.from({ length: 8 }, () => []),
  columns: cols(TOPS), ...o,
});
const $ = (s) => document.querySelector(s);
const top = (pile) => $(`#table [data-pile="${pile}"] .card.top`)?.dataset.card || '';
const sent = (ws) => ws.sent.filter((m) => m.type === 'action');

function game() {
  const b = install();
  const toasts = [];
  const mode = new SoloMode($('#table'), {
    settings: { dblclick: true }, toast: (m) => toasts.push(m), onWin() {}, onBanner() {},
  });
  mode.open(view());
  const ws = FakeSocket.all.at(-1);
  ws.open();
  return { b, mode, ws, toasts };
}

test('a tap shows its card on the foundation at once, and goes out when no second tap comes', () => {
  const { b, mode, ws } = game();
  b.tap($('#table [data-pile="c1"] .card.top'));
  assert.equal(top('f1'), 'AS');
  assert.equal(top('c1'), '');
  assert.deepEqual(sent(ws), []);
  b.advance(DOUBLE_MS);
  assert.deepEqual(sent(ws).map((m) => m.action), [{ type: 'tap', from: 'c1' }]);
  // the server agrees: its event and its ack leave the screen as it was
  ws.onmessage({ data: JSON.stringify({ type: 'event', seq: 1, game: view({ seq: 1, moves: 1, undo: 1, score: 10, foundations: [['AS'], [], [], [], [], [], [], []], columns: cols(['', ...TOPS.slice(1)]) }) }) });
  ws.onmessage({ data: JSON.stringify({ type: 'ack', id: sent(ws)[0].id, seq: 1 }) });
  assert.equal(top('f1'), 'AS');
  assert.equal(mode.mine.length, 0);
  assert.equal($('#table [data-pile="f1"] .card.top').classList.contains('last'), true, 'the last move is marked');
  mode.dispose();
});

test('a second tap in the window sends one double tap, and the card goes on to its column', () => {
  const { b, mode, ws } = game();
  b.tap($('#table [data-pile="c1"] .card.top'));
  assert.equal(top('f1'), 'AS');
  // the second press is on the pile the ace left
  b.tap($('#table [data-pile="c1"]'));
  assert.equal(top('f1'), '');
  assert.equal(top('c5'), 'AS');
  b.advance(1000);
  assert.deepEqual(sent(ws).map((m) => m.action), [{ type: 'dtap', from: 'c1', count: 1 }]);
  mode.dispose();
});

test('a refused move goes back, with a toast', () => {
  const { b, mode, ws, toasts } = game();
  b.tap($('#table [data-pile="c1"] .card.top'));
  b.advance(DOUBLE_MS);
  assert.equal(top('f1'), 'AS');
  ws.onmessage({ data: JSON.stringify({ type: 'reject', id: sent(ws)[0].id, error: { code: 'illegal_move' } }) });
  assert.equal(top('f1'), '');
  assert.equal(top('c1'), 'AS');
  assert.deepEqual(toasts, [en.err.illegal_move]);
  mode.dispose();
});

test('other input sends the tap on screen first', () => {
  const { b, mode, ws } = game();
  b.tap($('#table [data-pile="c1"] .card.top'));
  b.tap($('#table [data-pile="s"] .card'));
  assert.deepEqual(sent(ws).map((m) => m.action.type), ['tap', 'draw']);
  mode.dispose();
});

test('an action the view holds already (a view sent on reconnecting) is not drawn twice', () => {
  const { b, mode, ws } = game();
  b.tap($('#table [data-pile="c1"] .card.top'));
  b.advance(DOUBLE_MS);
  const after = view({ seq: 1, moves: 1, foundations: [['AS'], [], [], [], [], [], [], []], columns: cols(['', ...TOPS.slice(1)]) });
  ws.onmessage({ data: JSON.stringify({ type: 'state', seq: 1, game: after }) });
  ws.onmessage({ data: JSON.stringify({ type: 'ack', id: sent(ws)[0].id, seq: 1 }) });
  assert.equal(mode.mine.length, 0);
  assert.equal(top('f1'), 'AS');
  assert.equal(document.querySelectorAll('#table [data-pile="f2"] .card.up').length, 0);
  mode.dispose();
});

test('Finish shows only while the view offers it and no move of mine waits; E sends it, once', () => {
  const { b, mode, ws } = game();
  const button = $('[data-testid=finish]');
  assert.equal(button.hidden, true);
  b.key('e'); // not offered: nothing goes out
  assert.deepEqual(sent(ws), []);
  const end = view({ seq: 1, moves: 1, stock: 0, waste: [], finish: true, columns: cols(['KD', '', '', '', '', '', '', '', '']).map((c) => ({ ...c, down: 0 })) });
  ws.onmessage({ data: JSON.stringify({ type: 'state', seq: 1, game: end }) });
  assert.equal(button.hidden, false);
  b.key('e');
  assert.deepEqual(sent(ws).map((m) => m.action), [{ type: 'finish' }]);
  // while it waits for the server the button goes, and a second press sends nothing
  assert.equal(button.hidden, true);
  b.key('e');
  assert.equal(sent(ws).length, 1);
  const won = view({ ...end, seq: 2, moves: 2, status: 'won', finish: false, columns: cols(Array(9).fill('')).map((c) => ({ ...c, down: 0 })) });
  ws.onmessage({ data: JSON.stringify({ type: 'event', seq: 2, game: won }) });
  ws.onmessage({ data: JSON.stringify({ type: 'ack', id: sent(ws)[0].id, seq: 2 }) });
  assert.equal(button.hidden, true);
  mode.dispose();
});
