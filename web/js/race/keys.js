// RaceMode methods for the keyboard: a cursor over my piles, pick up and put
// down (mixed into RaceMode.prototype by mode.js).
import { tapAction, dropTarget, moveAction } from '../gesture.js';

const ORDER = ['s', 'w', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'];

export const keyMethods = {
  key(e) {
    if (this.game.hidden || !this.shown || !this.seat || document.querySelector('dialog[open]')) return;
    if (e.target.closest?.('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) return;
    const v = this.bv();
    const c = this.cursor || { pile: 's', i: 0 };
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const upLen = (pile) => (pile[0] === 'c' ? v.columns[+pile.slice(1) - 1].up.length : 0);
    const moveTo = (pile, i) => { this.cursor = { pile, i: i ?? Math.max(0, upLen(pile) - 1) }; this.focusCursor(); };
    switch (k) {
      case 'ArrowRight':
      case 'ArrowLeft': {
        const n = ORDER.length;
        moveTo(ORDER[(ORDER.indexOf(c.pile) + (k === 'ArrowRight' ? 1 : n - 1)) % n]);
        break;
      }
      case 'ArrowUp':
      case 'ArrowDown':
        if (c.pile[0] === 'c') moveTo(c.pile, Math.max(0, Math.min(upLen(c.pile) - 1, c.i + (k === 'ArrowUp' ? -1 : 1))));
        else moveTo(k === 'ArrowDown' ? 'c1' : 's');
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
        } else {
          const n = c.pile[0] === 'c' ? upLen(c.pile) - c.i : c.pile === 'w' && v.waste.length ? 1 : 0;
          this.sel = n > 0 ? { pile: c.pile, i: c.pile[0] === 'c' ? c.i : 0, count: n } : null;
          this.markSel();
        }
        break;
      case 'Escape': this.sel = null; this.markSel(); break;
      case 'd': this.act(tapAction(v, 's', null, 'single')); break;
      case 'f': this.act(tapAction(v, c.pile, c.pile[0] === 'c' ? upLen(c.pile) - 1 : c.i, 'single')); break;
      case 't': this.act(tapAction(v, c.pile, c.i, 'double')); break;
      case 'p': if (this.view.turns === 'alternating') this.act({ type: 'pass' }); break;
      case 'w': moveTo('w', 0); break;
      default:
        if (/^[1-7]$/.test(k)) moveTo('c' + k);
        else return;
    }
    e.preventDefault();
  },

  markSel() {
    for (const el of this.play.querySelectorAll('.card.sel')) el.classList.remove('sel');
    const s = this.sel;
    if (!s) return;
    const pileEl = this.board.querySelector(`[data-pile="${s.pile}"]`);
    for (const el of pileEl?.querySelectorAll('.card.up') || []) {
      if (s.pile[0] === 'c' ? +el.dataset.i >= s.i : el.classList.contains('top')) el.classList.add('sel');
    }
  },

  focusCursor() {
    const c = this.cursor;
    if (!c) return;
    const pileEl = c.pile[0] === 'f' ? this.found.querySelector(`[data-pile="${c.pile}"]`) : this.board.querySelector(`[data-pile="${c.pile}"]`);
    if (!pileEl) return;
    let el = pileEl;
    if (c.pile[0] === 'c') el = pileEl.querySelector(`.card.up[data-i="${c.i}"]`) || pileEl.querySelector('.card.up.top') || pileEl;
    else if (c.pile !== 's') el = pileEl.querySelector('.card.top') || pileEl;
    if (el.tabIndex < 0 && el !== pileEl) el.tabIndex = -1;
    el.focus({ preventScroll: true });
  },
};
