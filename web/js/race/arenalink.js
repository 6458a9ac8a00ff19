// The live link to one arena: its socket (GET /api/v1/arenas/{id}/ws),
// which app.js keeps open while the player is on the arena's screen or in
// one of its races, since a joined player is paired only while it is open.
// It keeps the last view and tells its listeners of every message; it
// reconnects with a growing wait while the arena is not over.
import { api, SIGNED_OUT, signedOut } from '../api.js';
import { serverOffset } from './arenamodel.js';

const PING_EVERY = 20000;

export class ArenaLink {
  /** hooks: {paired(race), scored(msg)}, called for every such message. */
  constructor(id, hooks) {
    this.id = id;
    this.hooks = hooks;
    this.view = null;
    this.offset = 0; // the server's clock minus this one, ms
    this.scored = null; // the last "scored" message, shown on the arena screen
    this.idle = false; // paused for an idle seat, told by the socket
    this.listeners = new Set();
    this.ws = null;
    this.backoff = 500;
    this.closed = false;
  }

  /** now is the server's clock, in ms. */
  now() { return Date.now() + this.offset; }

  /** listen calls fn(msg) on every message (and {type: 'view'} on a view fetched over REST); it returns the function that stops it. */
  listen(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  tell(m) { for (const fn of [...this.listeners]) fn(m); }

  /** accept takes a view of the arena (from the socket or REST). */
  accept(v, type = 'view') {
    if (!v || v.id !== this.id) return;
    this.view = v;
    this.offset = serverOffset(v, Date.now());
    if (v.you && !v.you.paused) this.idle = false;
    this.tell({ type, arena: v });
  }

  /** refresh fetches the arena's view with all its standings. */
  async refresh() {
    const v = await api('GET', `/api/v1/arenas/${encodeURIComponent(this.id)}`);
    if (!this.closed) this.accept(v);
    return v;
  }

  /** start opens the socket. */
  start() {
    if (!('WebSocket' in globalThis)) return;
    this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.ping);
    if (this.ws) { const ws = this.ws; this.ws = null; ws.close(1000); }
  }

  /** over tells whether the arena is over with no race of it left in play: nothing more to follow. */
  over() { return this.view?.status === 'over' && !(this.view.racesInPlay > 0); }

  connect() {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let ws;
    try { ws = new WebSocket(`${proto}//${location.host}/api/v1/arenas/${encodeURIComponent(this.id)}/ws`); } catch { return; }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.backoff = 500;
      clearInterval(this.ping);
      this.ping = setInterval(() => { try { ws.send(JSON.stringify({ type: 'ping' })); } catch { /* closing */ } }, PING_EVERY);
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      this.message(m);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      clearInterval(this.ping);
      this.ws = null;
      if (e?.code === SIGNED_OUT) { this.closed = true; signedOut(); return; }
      if (this.closed || this.over()) return;
      // closed by the server (1000: the arena moved, 1012: a restart) or lost
      this.retry = setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 8000);
    };
  }

  message(m) {
    if (!m || typeof m !== 'object') return;
    switch (m.type) {
      case 'arena':
        this.accept(m.arena, 'arena');
        return;
      case 'paired':
        this.scored = null;
        this.tell(m);
        this.hooks.paired?.(m.race);
        return;
      case 'scored':
        this.scored = m;
        this.tell(m);
        this.hooks.scored?.(m);
        return;
      case 'paused':
        this.idle = m.reason === 'idle';
        if (this.view?.you) this.view.you = { ...this.view.you, paused: true, idle: this.idle };
        this.tell(m);
        return;
    }
  }
}
