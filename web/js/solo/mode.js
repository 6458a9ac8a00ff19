// Solo mode: one player, one Double Klondike game. Draws what the server
// answers, turns pointer and keyboard input into actions.
import { GameConn } from '../conn.js';
import { attachDrag, pickCards, settle } from '../drag.js';
import { TapTracker, DOUBLE_MS, dropTarget, tapAction, moveAction } from '../gesture.js';
import { changes } from '../diff.js';
import { t, formatScore, formatTime } from '../i18n.js';
import { reducedMotion } from '../settings.js';
import { layoutTable, renderTable, topCards } from './table.js';

const ORDER = ['s', 'w', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9'];
const $ = (sel) => document.querySelector(sel);

export class SoloMode {
  /** ui: {settings, toast(msg), onWin(view, sources), onBanner(down)}. */
  constructor(root, ui) {
    this.root = root;
    this.ui = ui;
    this.view = null;
    this.conn = null;
    this.taps = new TapTracker(DOUBLE_MS);
    this.tapTimer = 0;
    this.pendingDrop = null;
    this.cursor = null;
    this.sel = null;
    this.L = null;
    attachDrag(root, {
      pick: (pile, card) => this.pick(pile, card),
      tap: (p, x, y, ts) => this.tap(p, x, y, ts),
      drop: (p, over, d) => this.drop(p, over, d),
      start: () => { clearTimeout(this.tapTimer); this.settleDrop(false); },
    });
    addEventListener('resize', () => {
      cancelAnimationFrame(this.raf);
      this.raf = requestAnimationFrame(() => this.render());
    });
    document.addEventListener('keydown', (e) => this.key(e));
    root.addEventListener('focusin', (e) => {
      const p = e.target.closest('[data-pile]');
      if (!p || p.dataset.pile === 'f') return;
      const i = e.target.dataset.i;
      this.cursor = { pile: p.dataset.pile, i: i != null ? +i : 0 };
    });
    setInterval(() => this.tick(), 1000);
  }

  /** open shows a game view and connects to its live updates. */
  open(view) {
    this.close();
    this.view = null;
    this.sel = null;
    this.conn = new GameConn(view.id, {
      onView: (v) => this.show(v),
      onReject: (code) => this.rejected(code),
      onStatus: ({ down }) => this.ui.onBanner(down),
    });
    this.conn.start(view);
  }

  close() {
    if (this.conn) this.conn.close();
    this.conn = null;
    this.ui.onBanner(false);
  }

  act(action) {
    if (!action || !this.conn || !this.view) return;
    if (this.view.status === 'won') return this.ui.toast(t('err.game_over'));
    this.conn.send(action);
  }

  undo() { if (this.view?.undo > 0) this.act({ type: 'undo' }); }

  rejected(code) {
    if (this.pendingDrop) this.settleDrop(true);
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
      if (this.pendingDrop) from = this.pendingDrop.clones.map((c) => c.getBoundingClientRect());
      else {
        const els = topCards(this.root, ch.from, ch.count);
        const pileEl = this.root.querySelector(`[data-pile="${ch.from}"]`);
        from = els.length ? els.map((e) => e.getBoundingClientRect()) : pileEl ? [pileEl.getBoundingClientRect()] : null;
      }
    }
    if (ch) this.settleDrop(false);
    const focusIn = this.root.contains(document.activeElement);
    this.L = layoutTable(this.root, v.columns.length);
    renderTable(this.root, v, this.L);
    if (ch && ch.count) {
      const els = topCards(this.root, ch.to, ch.count);
      els.forEach((el, i) => {
        el.classList.add('last');
        const r0 = from && (from[i] || from[from.length - 1]);
        if (r0 && el.animate) {
          const r = el.getBoundingClientRect();
          // a flying card must not catch the next tap (quick taps on the stock)
          // until it lands: the animation may start late on a busy device, so
          // a fixed delay is not enough; the timer covers hidden tabs.
          el.style.pointerEvents = 'none';
          const land = () => { el.style.pointerEvents = ''; };
          const timer = setTimeout(land, 1000);
          el.animate([{ transform: `translate(${r0.left - r.left}px,${r0.top - r.top}px)` }, { transform: 'none' }], { duration: 170, easing: 'ease-out' })
            .onfinish = () => { clearTimeout(timer); land(); };
        }
      });
    }
    this.markSel();
    if (focusIn || this.cursor) this.focusCursor(focusIn);
    this.hud();
    this.root.removeAttribute('aria-busy');
    document.body.dataset.seq = v.seq;
    document.body.dataset.status = v.status;
    document.body.dataset.ready = '1';
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
    const hint = $('[data-testid=stuck]');
    hint.hidden = !(v.stuck && v.status === 'playing');
    hint.textContent = t('game.stuck');
    this.tick(true);
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

  // ---- pointer input ----

  pick(pile, card) {
    const v = this.view;
    if (!v || v.status === 'won') return null;
    if (pile === 's') return { pile, els: [] };
    if (pile === 'f' || !card || !card.classList.contains('up')) return null;
    return pickCards(pile, card);
  }

  tap(p, x, y, ts) {
    const v = this.view;
    this.sel = null;
    this.markSel();
    if (p.pile === 's') return this.act(tapAction(v, 's', null, 'single'));
    if (!this.ui.settings.dblclick) return this.act(tapAction(v, p.pile, p.index, 'single'));
    const kind = this.taps.press(`${p.pile}:${p.index}`, x, y, ts);
    clearTimeout(this.tapTimer);
    if (kind === 'double') return this.act(tapAction(v, p.pile, p.index, 'double'));
    const single = tapAction(v, p.pile, p.index, 'single');
    if (single) this.tapTimer = setTimeout(() => this.act(single), DOUBLE_MS);
  }

  drop(p, over, d) {
    const to = dropTarget(p.pile, over);
    if (!to || !this.view) return false;
    this.act(moveAction(p.pile, p.els.length, to));
    this.pendingDrop = d;
    clearTimeout(this.dropTimer);
    this.dropTimer = setTimeout(() => this.settleDrop(true), 4000);
    return true;
  }

  /** settleDrop removes the floating copy: back to its place, or simply away. */
  settleDrop(back) {
    const d = this.pendingDrop;
    if (!d) return;
    this.pendingDrop = null;
    clearTimeout(this.dropTimer);
    settle(d, back);
  }

  // ---- keyboard ----

  key(e) {
    if (!this.view || document.querySelector('dialog[open]')) return;
    if (e.target.closest?.('input, select, textarea')) return;
    const k = e.key;
    if ((e.ctrlKey || e.metaKey) && (k === 'z' || k === 'Z')) { e.preventDefault(); return this.undo(); }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const v = this.view;
    const c = this.cursor || { pile: 's', i: 0 };
    const lower = k.length === 1 ? k.toLowerCase() : k;
    const upLen = (pile) => (pile[0] === 'c' ? v.columns[+pile.slice(1) - 1].up.length : 0);
    const moveTo = (pile, i) => {
      this.cursor = { pile, i: i ?? Math.max(0, upLen(pile) - 1) };
      this.focusCursor(true);
    };
    switch (lower) {
      case 'ArrowRight':
      case 'ArrowLeft': {
        const n = ORDER.length - (9 - v.columns.length);
        const j = (ORDER.indexOf(c.pile) + (lower === 'ArrowRight' ? 1 : n - 1)) % n;
        moveTo(ORDER[j]);
        break;
      }
      case 'ArrowUp':
      case 'ArrowDown':
        if (c.pile[0] === 'c') moveTo(c.pile, Math.max(0, Math.min(upLen(c.pile) - 1, c.i + (lower === 'ArrowUp' ? -1 : 1))));
        else moveTo(lower === 'ArrowDown' ? 'c1' : 's');
        break;
      case 'Enter':
      case ' ':
        this.cursor = c;
        if (c.pile === 's') this.act(tapAction(v, 's', null, 'single'));
        else if (this.sel) {
          const to = this.sel.pile === c.pile ? null : dropTarget(this.sel.pile, c.pile);
          if (to) this.act(moveAction(this.sel.pile, this.sel.count, to));
          this.sel = null;
          this.markSel();
        } else this.select(c);
        break;
      case 'Escape': this.sel = null; this.markSel(); break;
      case 'd': this.act(tapAction(v, 's', null, 'single')); break;
      case 'u': this.undo(); break;
      case 'f': this.act(tapAction(v, c.pile, c.pile[0] === 'c' ? upLen(c.pile) - 1 : c.i, 'single')); break;
      case 't': this.act(tapAction(v, c.pile, c.i, 'double')); break;
      case 'w': moveTo('w', 0); break;
      default:
        if (/^[1-9]$/.test(k) && +k <= v.columns.length) moveTo('c' + k);
        else return;
    }
    e.preventDefault();
  }

  select(c) {
    const v = this.view;
    let count = 0;
    if (c.pile[0] === 'c') count = v.columns[+c.pile.slice(1) - 1].up.length - c.i;
    else if (c.pile === 'w') count = v.waste.length ? 1 : 0;
    else if (c.pile[0] === 'f') count = v.foundations[+c.pile.slice(1) - 1].length ? 1 : 0;
    this.sel = count > 0 ? { pile: c.pile, i: c.pile[0] === 'c' ? c.i : 0, count } : null;
    this.markSel();
  }

  markSel() {
    for (const el of this.root.querySelectorAll('.card.sel')) el.classList.remove('sel');
    const s = this.sel;
    if (!s) return;
    const pileEl = this.root.querySelector(`[data-pile="${s.pile}"]`);
    for (const el of pileEl.querySelectorAll('.card.up')) {
      if (s.pile[0] === 'c' ? +el.dataset.i >= s.i : el.classList.contains('top')) el.classList.add('sel');
    }
  }

  focusCursor(really) {
    const c = this.cursor;
    if (!c || !really) return;
    const pileEl = this.root.querySelector(`[data-pile="${c.pile}"]`);
    if (!pileEl) return;
    let el = pileEl;
    if (c.pile[0] === 'c') el = pileEl.querySelector(`.card.up[data-i="${c.i}"]`) || pileEl.querySelector('.card.up.top') || pileEl;
    else if (c.pile !== 's') el = pileEl.querySelector('.card.top') || pileEl;
    if (el.tabIndex < 0 && el !== pileEl) el.tabIndex = -1;
    el.focus({ preventScroll: true });
  }
}
