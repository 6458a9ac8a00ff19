// Quick match in the race lobby: queue with the lobby form's settings (POST
// /api/v1/match), wait on the match socket for the race, show the time
// waited and Cancel, and once the server's botAfterSeconds have passed offer
// a race against the computer instead. A socket that drops, or a server
// that forgot the queue (a restart), gets the player queued again.
import { api, SIGNED_OUT, signedOut } from '../api.js';
import { t, countdown } from '../i18n.js';
import { errText } from '../notice.js';

export class QuickMatch {
  /** lobby is the LobbyMode: its scope, form body, create and ui.openRace. */
  constructor(lobby, root) {
    this.lobby = lobby;
    this.scope = lobby.scope;
    this.el = (id) => root.querySelector(`[data-testid=${id}]`);
    this.active = false;
    this.ws = null;
    this.botAfter = 30;
    this.el('quick-match').onclick = () => this.start();
    this.el('quick-cancel').onclick = () => this.cancel();
    this.el('quick-bot').onclick = () => this.bot();
    this.scope.add(() => { if (this.active) this.leave(); });
  }

  show(waiting) {
    this.el('quick-match').hidden = waiting;
    this.el('quick-waiting').hidden = !waiting;
    if (!waiting) { this.el('quick-bot').hidden = true; this.el('quick-bot-offer').hidden = true; }
  }

  start() {
    const body = this.lobby.body(this.lobby.form, false);
    delete body.public;
    this.body = body;
    this.active = true;
    this.since = Date.now();
    this.el('quick-error').hidden = true;
    this.el('in-play').hidden = true;
    this.show(true);
    this.tick();
    this.queue();
  }

  async queue() {
    let a;
    try {
      a = await api('POST', '/api/v1/match', this.body);
    } catch (x) {
      if (this.active) this.fail(x);
      return;
    }
    if (!this.active || this.scope.disposed) return;
    if (a.id) { this.active = false; this.lobby.ui.openRace(a); return; } // paired at once
    this.botAfter = a.botAfterSeconds ?? this.botAfter;
    this.watch();
  }

  watch() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let ws;
    try { ws = new WebSocket(`${proto}//${location.host}/api/v1/match/ws`); } catch (x) { this.fail(x); return; }
    this.ws = ws;
    let done = false;
    ws.onmessage = (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      if (m.type === 'matched') { done = true; this.matched(m.race); }
      else if (m.type === 'idle') { done = true; if (this.active) this.queue(); } // the queue forgot us: join again
    };
    ws.onclose = (e) => {
      if (e?.code === SIGNED_OUT) { this.active = false; signedOut(); return; }
      if (this.ws === ws) this.ws = null;
      if (!done && this.active && !this.scope.disposed) this.scope.later(() => { if (this.active) this.queue(); }, 1000);
    };
  }

  async matched(id) {
    this.active = false;
    try {
      const v = await api('GET', `/api/v1/games/${encodeURIComponent(id)}`);
      if (!this.scope.disposed) this.lobby.ui.openRace(v);
    } catch (x) { this.fail(x); }
  }

  tick() {
    if (!this.active || this.scope.disposed) return;
    const s = Math.floor((Date.now() - this.since) / 1000);
    this.el('quick-elapsed').textContent = countdown(s);
    const offer = s >= this.botAfter;
    this.el('quick-bot').hidden = !offer;
    this.el('quick-bot-offer').hidden = !offer;
    this.scope.later(() => this.tick(), 1000);
  }

  /** leave takes the player out of the queue (best effort). */
  leave() {
    this.active = false;
    if (this.ws) { const ws = this.ws; this.ws = null; ws.close(1000); }
    api('DELETE', '/api/v1/match').catch(() => { /* the queue drops us anyway */ });
  }

  cancel() {
    this.leave();
    this.show(false);
    this.el('quick-match').focus();
  }

  async bot() {
    this.leave();
    try { await this.lobby.create({ ...this.body, public: false, bot: this.lobby.form.bot.value }); } catch (x) { this.fail(x); }
  }

  fail(x) {
    this.active = false;
    this.show(false);
    if (this.lobby.inPlay(x)) return;
    const err = this.el('quick-error');
    err.textContent = errText(x);
    err.hidden = false;
  }
}
