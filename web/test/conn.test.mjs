import { test } from 'node:test';
import assert from 'node:assert/strict';
import { install, FakeSocket } from './dom.mjs';

// A network gone without a close frame: the link notices, says so, opens a
// new socket and resends the unanswered action with its id.
test('a silent socket is given up and the action resent with its id', async () => {
  const env = install({});
  globalThis.fetch = () => new Promise(() => {}); // the network is gone: REST hangs too
  const { GameConn } = await import('../js/conn.js');
  const downs = [];
  const views = [];
  const c = new GameConn('g1', {
    onView: (v) => views.push(v), onReject: () => assert.fail('rejected'), onStatus: ({ down }) => downs.push(down),
  });
  c.start({ id: 'g1', seq: 3, stock: 10, waste: [] });
  const first = FakeSocket.all.at(-1);
  assert.match(first.url, /\/api\/v1\/games\/g1\/ws\?v=2&since=3$/);
  first.open();
  const id = c.send({ type: 'draw' });
  assert.deepEqual(first.sent.at(-1), { type: 'action', id, action: { type: 'draw' } });

  env.advance(4000); // no answer: "reconnecting…", and a ping to find out
  assert.equal(downs.at(-1), true);
  assert.deepEqual(first.sent.at(-1), { type: 'ping' });
  env.advance(8000); // still nothing: the socket is given up
  assert.equal(first.readyState, 3);
  await env.flush();
  env.advance(1000); // and another one opened
  const second = FakeSocket.all.at(-1);
  assert.notEqual(second, first);
  second.open();
  assert.deepEqual(second.sent.find((m) => m.type === 'action'), { type: 'action', id, action: { type: 'draw' } });
  second.onmessage({ data: JSON.stringify([
    { type: 'event', seq: 4, seat: 1, action: { type: 'draw' }, at: '', d: { s: 9, w: [0, 'AS'] } },
    { type: 'ack', id, seq: 4 },
  ]) });
  assert.equal(c.pending.length, 0);
  assert.equal(downs.at(-1), false);
  assert.deepEqual(views.at(-1), { id: 'g1', seq: 4, stock: 9, waste: ['AS'] });
  c.close();
});

test('a quiet but live socket is pinged, not dropped', async () => {
  const env = install({});
  const { GameConn } = await import('../js/conn.js');
  const c = new GameConn('g2', { onView() {}, onReject() {}, onStatus() {} });
  c.start({ id: 'g2', seq: 0 });
  const ws = FakeSocket.all.at(-1);
  ws.open();
  for (let i = 0; i < 5; i++) {
    env.advance(5000);
    assert.deepEqual(ws.sent.at(-1), { type: 'ping' });
    ws.onmessage({ data: '{"type":"pong"}' });
  }
  assert.equal(ws.readyState, 1);
  assert.equal(FakeSocket.all.at(-1), ws);
  c.close();
});

// A check message answers the view at its seq: it is taken then, and
// ignored once the game has moved on; the next delta says when it changes.
test('a check message sets stillWinnable of the view at its seq only', async () => {
  install({});
  const { GameConn } = await import('../js/conn.js');
  const views = [];
  const c = new GameConn('g3', { onView: (v) => views.push(v), onReject() {}, onStatus() {} });
  c.start({ id: 'g3', seq: 5, stock: 10, waste: [], stillWinnable: null });
  const ws = FakeSocket.all.at(-1);
  ws.open();
  ws.onmessage({ data: '{"type":"check","seq":5,"stillWinnable":true}' });
  assert.deepEqual(views.at(-1), { id: 'g3', seq: 5, stock: 10, waste: [], stillWinnable: true });
  ws.onmessage({ data: JSON.stringify({ type: 'event', seq: 6, seat: 1, action: { type: 'draw' }, at: '', d: { stillWinnable: null, s: 9, w: [0, 'AS'] } }) });
  assert.equal(views.at(-1).stillWinnable, null);
  const n = views.length;
  ws.onmessage({ data: '{"type":"check","seq":5,"stillWinnable":false}' });
  assert.equal(views.length, n, 'a check of an older seq changes nothing');
  ws.onmessage({ data: '{"type":"check","seq":6,"stillWinnable":false}' });
  assert.equal(views.at(-1).stillWinnable, false);
  assert.equal(views.at(-1).stock, 9);
  c.close();
});
