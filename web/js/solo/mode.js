// Solo mode: one player, one Double Klondike game. input.js turns pointer
// and keyboard input into its actions. A move the client can work out (a
// tap, a double tap, a drag) shows at once, on top of the server's view, and
// stays until the server has answered it: its view, then, is what shows; a
// refused move goes back. A new game is a new SoloMode: app.js disposes of
// the old one.
import { api } from '../api.js';
import { GameConn } from '../conn.js';
import { Input } from '../input.js';
import { Scope } from '../scope.js';
import { changes } from '../diff.js';
import { t, formatScore, formatTime } from '../i18n.js';
import { errText } from '../notice.js';
import { reducedMotion } from '../settings.js';
import { apply, resolve, targets } from '../rules.js';
import { Pending } from '../pending.js';
import { layoutTable, renderTable, topCards } from './table.js';
import { clearMarks, fetchHint, marks, paintMarks } from './hint.js';

const $ = (sel) => document.querySelector(sel);

/** over reports whether a game takes no more actions: won, or a daily challenge whose day closed. */
const over = (v) => v.status === 'won' || !!v.closed;

export class SoloMode {
  /** ui: {settings, toast(msg), onWin(view, sources), onBanner(down)}. */
  constructor(root, ui) {
    this.root = root;
    this.ui = ui;
    this.view = null; // the server's view
    this.shown = null; // what is drawn: the view and my unanswered moves
    this.mine = new Pending(); // my unanswered actions
    this.preview = null; // a tap shown while it waits for a possible second one
    this.last = null; // the last move, highlighted: {pile, count}
    this.hinted = null; // the hint on show: {seq, marks}, until the next action
    this.checkAsked = false; // the live check was turned on for this game
    this.checkSeq = -1; // the seq of the live check's last answer (a check message)
    this.conn = null;
    this.L = null;
    this.elapsed = 0;
    this.scope = new Scope();
    this.input = new Input(this.scope, { root, settings: ui.settings, fromFoundations: true }, {
      view: () => (this.view ? this.display(false) : null),
      canPick: () => !!this.view && !over(this.view),
      act: (a) => this.act(a),
      preview: (a) => this.showPreview(a),
      targets: (p) => {
        const v = this.display(false);
        return p.pile === 's' || !v ? [] : targets(v, p.pile, p.pile[0] === 'c' ? v.columns[+p.pile.slice(1) - 1].up.length - p.index : 1);
      },
      undo: () => this.undo(),
      hint: () => this.hint(),
      finish: () => this.finish(),
    });
    this.scope.on(window, 'resize', () => this.scope.frame('render', () => this.render()));
    this.scope.every(() => this.tick(), 1000);
  }

  /** open shows a game view and connects to its live updates. */
  open(view) {
    const live = (fn) => this.scope.live(fn);
    this.conn = this.scope.add(new GameConn(view.id, {
      onView: live((v) => this.show(v)),
      onReject: live((code, msg, action, id) => this.rejected(code, id)),
      onStatus: live(({ down }) => this.ui.onBanner(down)),
      onAck: live((id, seq) => this.acked(id, seq)),
      // every event of a solo game is mine: the oldest unanswered action made it
      onMessage: live((m) => {
        if (m.type === 'check') this.checkSeq = m.seq;
        if (m.type === 'event' && m.seq > (this.view?.seq ?? -1)) this.mine.event(m.seq);
      }),
    }));
    this.conn.start(view);
  }

  /** dispose releases the game's socket, listeners and timers. */
  dispose() {
    this.scope.dispose();
    this.conn = null;
    $('[data-testid=stuck]').hidden = true;
    $('[data-testid=finish]').hidden = true;
    $('[data-testid=still]').hidden = true;
    this.ui.onBanner(false);
  }

  /** redraw draws again after a change of settings or language. */
  redraw() { this.render(); }

  /**
   * display is the server's view with my unanswered moves on top, as far as
   * the client can work them out (after one it cannot, such as a draw, the
   * rest wait for the server); withPreview: and the waiting tap.
   */
  display(withPreview = true) {
    const d = this.mine.over(this.view, apply);
    const p = withPreview && this.preview && apply(d, this.preview);
    return p || d;
  }

  /** showPreview draws a waiting tap's move at once; it tells whether it could. */
  showPreview(a) {
    const m = this.view && resolve(this.display(false), a);
    if (!m) return false;
    this.preview = a;
    this.paint([m.from, m.to]);
    return true;
  }

  /** act sends action; it tells whether it went out. */
  act(action) {
    if (!action || !this.conn || !this.view) return false;
    if (over(this.view)) { this.ui.toast(t(this.view.closed ? 'game.closed' : 'err.game_over')); return false; }
    // an action from outside the table (the undo button) comes after the
    // tap that waits: that one goes first
    if (this.input.waiting) this.input.decide();
    const p = this.preview;
    this.preview = null;
    const before = this.display(false);
    const m = resolve(before, action);
    const opt = !!m;
    const id = this.conn.send(action);
    this.mine.add(id, action, opt);
    // the tap that waited is on screen already, and marked as the last move
    if (p && p === action) return true;
    // the last move's mark, and a hint's, go with the next action
    this.last = null;
    this.hinted = null;
    clearMarks(this.root);
    for (const el of this.root.querySelectorAll('.card.last')) el.classList.remove('last');
    // what the client can work out is drawn now (a drop's floating copy
    // lands there), and a preview it replaces goes
    if (opt && !p) this.paint([m.from, m.to]);
    else if (opt || p) this.paint();
    return true;
  }

  undo() { if (this.view?.undo > 0) this.act({ type: 'undo' }); }

  /** hint asks the server for a move and marks it on the table, without playing it. */
  async hint() {
    const v = this.view;
    if (!v || over(v) || this.mine.length) return;
    let h;
    try {
      h = await fetchHint(v.id);
    } catch (e) {
      if (this.view !== v) return;
      this.ui.toast(e.code === 'rate_limited' ? t('hint.busy') : errText(e));
      return;
    }
    // the position moved on meanwhile: that hint is for another one
    if (this.view !== v || this.mine.length) return;
    const m = marks(h.action);
    this.ui.toast(t(!m ? 'hint.none' : m.to ? 'hint.move' : h.action.type === 'recycle' ? 'hint.recycle' : 'hint.draw'));
    this.hinted = m && { seq: v.seq, marks: m };
    clearMarks(this.root);
    if (m) paintMarks(this.root, m, (p, n) => topCards(this.root, p, n));
  }

  /** canFinish: the server offers a finish for the position on screen (no move of mine waits). */
  canFinish() { return !!this.view?.finish && this.view.status === 'playing' && !this.view.closed && !this.mine.length; }

  /** finish asks the server to play the remaining cards up; it never happens by itself. */
  finish() { if (this.canFinish() && this.act({ type: 'finish' })) this.hud(); }

  /** acked notes the seq of my action id; one the view already holds (a view sent on reconnecting) is done. */
  acked(id, seq) {
    const e = this.mine.acked(id, seq);
    if (e && this.view && seq <= this.view.seq) {
      this.mine.drop(e);
      this.paint();
    }
  }

  rejected(code, id) {
    const had = this.mine.reject(id);
    this.input.settle(true);
    // a refused move that showed goes back, and says why
    if (had) this.paint();
    if (code !== 'illegal_move' || had) this.ui.toast(errText({ code }));
  }

  show(v) {
    const prev = this.view;
    this.view = v;
    this.mine.seen(v.seq, this.conn?.pending);
    this.paint();
    if (v.status === 'won' && prev?.status !== 'won') {
      const rects = [...this.root.querySelectorAll('.found [data-pile]')].map((p) => p.getBoundingClientRect());
      const all = [];
      for (let r = 12; r >= 0; r--) v.foundations.forEach((f, i) => f[r] && rects[i] && all.push({ card: f[r], rect: rects[i] }));
      this.ui.onWin(v, all);
    }
  }

  /**
   * paint draws what is to be shown now; what changed since the last drawing
   * flies in and is marked. only: the piles that changed, when known.
   */
  paint(only) {
    const prev = this.shown;
    this.shown = this.display();
    this.render(prev, only);
  }

  /** render draws the shown view; prev (if given) drives highlight and animation; only: the piles to redraw (all: none given). */
  render(prev, only) {
    const v = this.shown;
    if (!v) return;
    const ch = prev ? changes(prev, v) : null;
    if (ch && ch.count) this.last = { pile: ch.to, count: ch.count };
    let from = null;
    if (ch && ch.count && !reducedMotion()) {
      const held = this.input.held;
      if (held) from = held.clones.map((c) => c.getBoundingClientRect());
      else {
        const els = topCards(this.root, ch.from, ch.count);
        const pileEl = this.root.querySelector(`[data-pile="${ch.from}"]`);
        from = els.length ? els.map((e) => e.getBoundingClientRect()) : pileEl ? [pileEl.getBoundingClientRect()] : null;
      }
    }
    if (ch) this.input.settle(false);
    this.input.redraw(() => {
      // the layout stays while only some piles change
      const part = only && this.L ? new Set(only) : null;
      if (!part) this.L = layoutTable(this.root, v);
      renderTable(this.root, v, this.L, part);
      if (ch && ch.count) {
        const els = topCards(this.root, ch.to, ch.count);
        reveal(els[els.length - 1]);
        this.land(els, from);
      }
      else if (this.last) for (const el of topCards(this.root, this.last.pile, this.last.count)) el.classList.add('last');
      clearMarks(this.root);
      const h = this.hinted;
      if (h && h.seq === this.view.seq && !this.mine.length) paintMarks(this.root, h.marks, (p, n) => topCards(this.root, p, n));
    });
    this.hud();
    this.root.removeAttribute('aria-busy');
    document.body.dataset.seq = this.view.seq;
    document.body.dataset.pending = this.mine.length; // drawn ahead of the server, not yet acknowledged
    document.body.dataset.status = this.view.status;
    document.body.dataset.ready = '1';
  }

  /** land marks the cards els of the last move and flies them in from the rects from. */
  land(els, from) {
    els.forEach((el, i) => {
      el.classList.add('last');
      // the card is in its place at once: only its picture travels
      const r0 = from && (from[i] || from[from.length - 1]);
      if (!r0 || !el.animate) return;
      const r = el.getBoundingClientRect();
      // a flying card must not catch the next tap (quick taps on the stock)
      // until it lands: the animation may start late on a busy device, so
      // a fixed delay is not enough; the timer covers hidden tabs.
      el.style.pointerEvents = 'none';
      const land = () => { el.style.pointerEvents = ''; };
      const timer = this.scope.later(land, 1000);
      el.animate([{ transform: `translate(${r0.left - r.left}px,${r0.top - r.top}px)` }, { transform: 'none' }], { duration: 170, easing: 'ease-out' })
        .onfinish = () => { this.scope.cancel(timer); land(); };
    });
  }

  hud() {
    const v = this.view;
    $('[data-testid=score]').textContent = formatScore(v.score, v.scoring);
    $('[data-testid=moves]').textContent = v.moves;
    $('[data-testid=undo-count]').textContent = v.undo;
    const u = $('[data-testid=undo]');
    u.disabled = !(v.undo > 0) || over(v);
    u.setAttribute('aria-label', `${t('hud.undo')} (${t('hud.undoLeft', { n: v.undo })})`);
    $('[data-testid=code]').textContent = v.code ?? '';
    $('[data-testid=finish]').hidden = !this.canFinish();
    this.stuck(v.closed ? 'closed' : v.stuck && v.status === 'playing' ? 'stuck' : '');
    this.still();
    this.tick(true);
  }

  /**
   * still shows the live check's answer in the footer while the setting is
   * on (turning the check on for the game the first time): still winnable,
   * no longer winnable, or can't tell once the server said so for this seq;
   * while the answer is being worked out the last one stays, marked busy.
   */
  still() {
    const el = $('[data-testid=still]');
    const v = this.view;
    const on = !!this.ui.settings.stillCheck && v.status === 'playing' && !v.closed;
    el.hidden = !on;
    if (!on) return;
    if (!this.checkAsked) {
      this.checkAsked = true;
      api('POST', `/api/v1/games/${v.id}/check`, { on: true })
        .catch((e) => { this.checkAsked = false; this.ui.toast(errText(e)); });
    }
    const known = v.stillWinnable != null || this.checkSeq === v.seq;
    const state = v.stillWinnable === true ? 'yes' : v.stillWinnable === false ? 'no' : known ? 'unknown' : 'pending';
    el.dataset.state = state;
    if (state === 'pending') { el.setAttribute('aria-busy', 'true'); return; }
    el.removeAttribute('aria-busy');
    const text = t({ yes: 'game.stillYes', no: 'game.stillNo', unknown: 'game.stillUnknown' }[state]);
    if (el.textContent !== text) el.textContent = text;
  }

  /**
   * stuck shows or hides the notice that no useful move is left, with its
   * Undo, Hint and New game: a bar between the HUD and the table, by the stock, so
   * that the whole position stays in sight; the table is laid out again in
   * the height left to it.
   */
  /**
   * stuck shows why the game cannot go on, with what the player may do:
   * why is 'stuck' (no useful move: undo, a hint or a new game), 'closed'
   * (a daily challenge whose day closed: a new game) or '' (it goes on).
   */
  stuck(why) {
    const box = $('[data-testid=stuck]');
    if (why) box.querySelector('.msg').textContent = t(why === 'closed' ? 'game.closed' : 'game.stuck');
    for (const id of ['stuck-undo', 'stuck-hint']) $(`[data-testid=${id}]`).hidden = why === 'closed';
    if (box.hidden === !why) return;
    box.hidden = !why;
    this.scope.frame('render', () => this.render());
  }

  /** elapsed time: from the view if the server keeps it, else counted here per game. */
  tick(paintOnly) {
    const v = this.view;
    if (!v) return;
    const key = 'dsol.t.' + v.id;
    let sec = +(localStorage.getItem(key) || 0);
    if (!paintOnly && v.status === 'playing' && !v.closed && document.visibilityState === 'visible' && v.moves > 0) {
      sec++;
      try { localStorage.setItem(key, sec); } catch { /* full */ }
    }
    if (typeof v.elapsed === 'number') sec = v.elapsed;
    this.elapsed = sec;
    $('[data-testid=time]').textContent = formatTime(sec);
  }
}

/**
 * reveal scrolls the columns, when they scroll, just enough to show el (the
 * last card of a move that landed at the foot of a column out of sight),
 * before its flight is measured.
 */
function reveal(el) {
  if (el && el.closest('.cols.scroll')) el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}
