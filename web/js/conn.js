// The live link to one game: WebSocket first, REST as the fallback.
// Every action gets a client id and stays pending until the server answers;
// pending actions are resent with the same id after a reconnect. The socket
// speaks protocol 2: events carry what changed, folded into the last view.
import { api, uuid, SIGNED_OUT, signedOut } from './api.js';
import { fold } from './fold.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A network that goes away without a close frame leaves a socket that looks
// open, so the link watches itself: every TICK it counts the silence; after
// PING_AFTER without a message it pings (the server answers after the
// actions sent before the ping), after DEAD_AFTER it gives the socket up and
// opens another (actions still unanswered are resent with their ids, which
// the server applies once), and an action unanswered for ACK_WAIT shows
// "reconnecting…" at once.
const TICK = 1000, PING_AFTER = 5000, DEAD_AFTER = 12000, ACK_WAIT = 4000;

export class GameConn {
  /**
   * hooks: onView(view), onReject(code, message, action, id), onStatus({down, mode}),
   * and optionally onMessage(msg) (every socket message, before it is handled)
   * and onAck(id, seq).
   */
  constructor(id, hooks, { useWS = 'WebSocket' in globalThis } = {}) {
    this.id = id;
    this.hooks = hooks;
    this.seq = -1;
    this.view = null;
    this.pending = [];
    this.mode = useWS ? 'ws' : 'rest';
    this.ws = null;
    this.open = false;
    this.everOpen = false;
    this.fails = 0;
    this.down = false;
    this.backoff = 500;
    this.closed = false;
    this.restBusy = false;
    this.fetching = null;
  }

  /** start shows a view already fetched (if any) and opens the socket. */
  start(view) {
    if (view) this.accept(view);
    if (this.mode === 'ws') this.connect();
  }

  close() {
    this.closed = true;
    clearInterval(this.watch);
    clearTimeout(this.retry);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }

  /** send queues an action and returns its client id. */
  send(action) {
    const id = uuid();
    this.pending.push({ id, action, tries: 0 });
    this.flush();
    return id;
  }

  accept(view, seq) {
    if (!view || view.id !== this.id) return;
    const s = view.seq ?? seq ?? this.seq;
    if (s < this.seq) return;
    this.seq = s;
    this.view = view;
    this.hooks.onView(view);
  }

  /** refresh fetches the current view (one request at a time). */
  refresh() {
    if (!this.fetching) {
      this.fetching = api('GET', `/api/v1/games/${this.id}`)
        .then((v) => this.accept(v))
        .catch(() => {})
        .finally(() => { this.fetching = null; });
    }
    return this.fetching;
  }

  status(down) {
    if (this.down === down) return;
    this.down = down;
    this.hooks.onStatus?.({ down, mode: this.mode });
  }

  remove(id) {
    const i = this.pending.findIndex((p) => p.id === id);
    return i < 0 ? null : this.pending.splice(i, 1)[0];
  }

  flush() {
    if (this.closed || !this.pending.length) return;
    if (this.open) {
      for (const p of this.pending) {
        if (p.gen === this.gen) continue;
        p.gen = this.gen;
        p.waited = 0;
        p.tries++;
        this.ws.send(JSON.stringify({ type: 'action', id: p.id, action: p.action }));
      }
    } else if (this.mode === 'rest' || this.down) {
      this.flushRest();
    }
  }

  async flushRest() {
    if (this.restBusy) return;
    this.restBusy = true;
    let wait = 400;
    try {
      while (this.pending.length && !this.open && !this.closed) {
        const p = this.pending[0];
        const body = { action: { ...p.action, id: p.id } };
        if (!p.tries) body.seq = this.seq; // a resend may find its own action applied
        p.tries++;
        try {
          const v = await api('POST', `/api/v1/games/${this.id}/actions`, body);
          this.remove(p.id);
          this.accept(v);
          if (this.mode === 'rest') this.status(false);
          wait = 400;
        } catch (e) {
          if (e.status === 0 || e.status >= 500 || e.code === 'unavailable' || e.code === 'rate_limited') {
            this.status(true);
            await sleep(wait);
            wait = Math.min(wait * 2, 8000);
            continue;
          }
          this.remove(p.id);
          if (e.code === 'conflict') await this.refresh();
          this.hooks.onReject(e.code, e.message, p.action, p.id);
        }
      }
    } finally {
      this.restBusy = false;
    }
  }

  connect() {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = this.seq >= 0 ? `?v=2&since=${this.seq}` : '?v=2';
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/api/v1/games/${encodeURIComponent(this.id)}/ws${q}`);
    } catch {
      this.mode = 'rest';
      return;
    }
    this.ws = ws;
    let opened = false;
    // if the first connection hangs, do not hold actions back
    const slow = setTimeout(() => { if (!opened && this.ws === ws) { this.status(true); this.flush(); } }, 2500);
    ws.onopen = () => {
      if (this.ws !== ws) return;
      clearTimeout(slow);
      opened = true;
      this.open = true;
      this.everOpen = true;
      this.fails = 0;
      this.backoff = 500;
      this.gen = (this.gen || 0) + 1;
      this.silent = 0;
      this.pinged = false;
      clearInterval(this.watch);
      this.watch = setInterval(() => this.tick(ws), TICK);
      this.status(false);
      this.flush();
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      this.silent = 0;
      this.pinged = false;
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      // one frame may carry several messages (an ack beside its event)
      for (const x of Array.isArray(m) ? m : [m]) if (x && typeof x === 'object') this.message(x);
    };
    ws.onclose = (e) => {
      clearTimeout(slow);
      if (this.ws !== ws) return;
      if (e?.code === SIGNED_OUT) { this.closed = true; signedOut(); return; }
      clearInterval(this.watch);
      this.ws = null;
      this.open = false;
      if (this.closed) return;
      if (!opened) this.fails++;
      if (!this.everOpen && this.fails >= 2) {
        // no WebSocket here (proxy, old server): plain REST from now on
        this.mode = 'rest';
        this.status(false);
        this.refresh();
        this.flush();
        return;
      }
      if (this.everOpen) this.status(true);
      this.flush();
      this.retry = setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 8000);
    };
  }

  /** tick is the socket's watch (see TICK). */
  tick(ws) {
    if (this.ws !== ws || !this.open) return;
    this.silent += TICK;
    let late = false;
    for (const p of this.pending) {
      if (p.gen !== this.gen) continue;
      p.waited = (p.waited || 0) + TICK;
      if (p.waited >= ACK_WAIT) late = true;
    }
    if (late) this.status(true);
    if (this.silent >= DEAD_AFTER) {
      // given up: the close handler reconnects (and sends what waits over REST meanwhile)
      const gone = ws.onclose;
      ws.onclose = null;
      try { ws.close(); } catch { /* already closing */ }
      gone?.();
      return;
    }
    if ((late || this.silent >= PING_AFTER) && !this.pinged) {
      this.pinged = true;
      ws.send(JSON.stringify({ type: 'ping' }));
    }
  }

  message(m) {
    this.hooks.onMessage?.(m);
    switch (m.type) {
      case 'state':
        this.accept(m.game, m.seq);
        break;
      case 'event':
        if (m.seq != null && m.seq <= this.seq) break;
        if (m.game) this.accept(m.game, m.seq);
        else if (m.d && this.view && this.seq === m.seq - 1) this.accept(fold(this.view, m.seq, m.d), m.seq);
        else this.refresh();
        break;
      case 'ack':
        this.remove(m.id);
        if (this.down && this.open && !this.pending.some((p) => p.waited >= ACK_WAIT)) this.status(false);
        this.hooks.onAck?.(m.id, m.seq);
        if (m.seq > this.seq) setTimeout(() => { if (m.seq > this.seq) this.refresh(); }, 400);
        break;
      case 'reject': {
        const p = this.remove(m.id);
        const err = m.error || {};
        this.hooks.onReject(err.code || 'generic', err.message, p && p.action, m.id);
        break;
      }
      case 'over':
        this.refresh();
        break;
      case 'check': // the live check's answer for the view at its seq
        if (this.view && m.seq === this.seq) this.accept({ ...this.view, stillWinnable: m.stillWinnable }, m.seq);
        break;
    }
  }
}
