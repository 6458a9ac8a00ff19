// Solo mode: one player, one Double Klondike game. Draws what the server
// answers; input.js turns pointer and keyboard input into its actions. A
// new game is a new SoloMode: app.js disposes of the old one.
import { GameConn } from '../conn.js';
import { Input } from '../input.js';
import { Scope } from '../scope.js';
import { changes } from '../diff.js';
import { t, formatScore, formatTime } from '../i18n.js';
import { reducedMotion } from '../settings.js';
import { layoutTable, renderTable, topCards } from './table.js';

const $ = (sel) => document.querySelector(sel);

export class SoloMode {
  /** ui: {settings, toast(msg), onWin(view, sources), onBanner(down)}. */
  constructor(root, ui) {
    this.root = root;
    this.ui = ui;
    this.view = null;
    this.conn = null;
    this.L = null;
    this.elapsed = 0;
    this.scope = new Scope();
    this.input = new Input(this.scope, { root, settings: ui.settings, fromFoundations: true }, {
      view: () => this.view,
      canPick: () => !!this.view && this.view.status !== 'won',
      act: (a) => this.act(a),
      undo: () => this.undo(),
    });
    this.scope.on(window, 'resize', () => this.scope.frame('render', () => this.render()));
    this.scope.every(() => this.tick(), 1000);
  }

  /** open shows a game view and connects to its live updates. */
  open(view) {
    const live = (fn) => this.scope.live(fn);
    this.conn = this.scope.add(new GameConn(view.id, {
      onView: live((v) => this.show(v)),
      onReject: live((code) => this.rejected(code)),
      onStatus: live(({ down }) => this.ui.onBanner(down)),
    }));
    this.conn.start(view);
  }

  /** dispose releases the game's socket, listeners and timers. */
  dispose() {
    this.scope.dispose();
    this.conn = null;
    $('[data-testid=stuck]').hidden = true;
    this.ui.onBanner(false);
  }

  /** redraw draws again after a change of settings or language. */
  redraw() { this.render(); }

  /** act sends action; it tells whether it went out. */
  act(action) {
    if (!action || !this.conn || !this.view) return false;
    if (this.view.status === 'won') { this.ui.toast(t('err.game_over')); return false; }
    this.conn.send(action);
    return true;
  }

  undo() { if (this.view?.undo > 0) this.act({ type: 'undo' }); }

  rejected(code) {
    this.input.settle(true);
    if (code !== 'illegal_move') this.ui.toast(t('err.' + code) === 'err.' + code ? t('err.generic') : t('err.' + code));
  }

  show(v) {
    const prev = this.view;
    this.view = v;
    this.render(prev);
    if (v.status === 'won' && prev?.status !== 'won') {
      const rects = [...this.root.querySelectorAll('.found [data-pile]')].map((p) => p.getBoundingClientRect());
      const all = [];
      for (let r = 12; r >= 0; r--) v.foundations.forEach((f, i) => f[r] && rects[i] && all.push({ card: f[r], rect: rects[i] }));
      this.ui.onWin(v, all);
    }
  }

  /** render draws the current view; prev (if given) drives highlight and animation. */
  render(prev) {
    const v = this.view;
    if (!v) return;
    const ch = prev ? changes(prev, v) : null;
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
      this.L = layoutTable(this.root, v.columns.length);
      renderTable(this.root, v, this.L);
      if (ch && ch.count) this.land(topCards(this.root, ch.to, ch.count), from);
    });
    this.hud();
    this.root.removeAttribute('aria-busy');
    document.body.dataset.seq = v.seq;
    document.body.dataset.status = v.status;
    document.body.dataset.ready = '1';
  }

  /** land marks the cards els of the last move and flies them in from the rects from. */
  land(els, from) {
    els.forEach((el, i) => {
      el.classList.add('last');
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
    u.disabled = !(v.undo > 0) || v.status === 'won';
    u.setAttribute('aria-label', `${t('hud.undo')} (${t('hud.undoLeft', { n: v.undo })})`);
    $('[data-testid=code]').textContent = v.code;
    this.stuck(v.stuck && v.status === 'playing');
    this.tick(true);
  }

  /**
   * stuck shows or hides the notice that no useful move is left, with its
   * Undo and New game: under the stock and the waste on a wide table, where
   * the player looks for one more card; on a tall one, where the columns
   * go down, at the foot of the table, so the position stays in sight.
   */
  stuck(on) {
    const box = $('[data-testid=stuck]');
    box.hidden = !on;
    if (!on) return;
    box.querySelector('.msg').textContent = t('game.stuck');
    const tall = this.root.classList.contains('portrait');
    // the stock and the waste with its fan (the .sw box is as tall as the table)
    const sw = [...this.root.querySelectorAll('.sw > .pile, .sw .card')].map((e) => e.getBoundingClientRect())
      .reduce((a, r) => ({ left: Math.min(a.left, r.left), right: Math.max(a.right, r.right), bottom: Math.max(a.bottom, r.bottom) }), { left: innerWidth, right: 0, bottom: 0 });
    const table = this.root.getBoundingClientRect();
    const lefty = document.documentElement.classList.contains('lefty');
    const px = (n) => Math.round(Math.max(8, n)) + 'px';
    Object.assign(box.style, tall
      ? { top: '', bottom: px(innerHeight - table.bottom + 8), left: '8px', right: '8px' }
      : { top: px(sw.bottom + 8), bottom: '', left: lefty ? '' : px(sw.left), right: lefty ? px(innerWidth - sw.right) : '' });
  }

  /** elapsed time: from the view if the server keeps it, else counted here per game. */
  tick(paintOnly) {
    const v = this.view;
    if (!v) return;
    const key = 'dsol.t.' + v.id;
    let sec = +(localStorage.getItem(key) || 0);
    if (!paintOnly && v.status === 'playing' && document.visibilityState === 'visible' && v.moves > 0) {
      sec++;
      try { localStorage.setItem(key, sec); } catch { /* full */ }
    }
    if (typeof v.elapsed === 'number') sec = v.elapsed;
    this.elapsed = sec;
    $('[data-testid=time]').textContent = formatTime(sec);
  }
}
