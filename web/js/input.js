// Input on a table, the same in every mode: a press picks cards up, a tap or
// a double tap acts on a pile, a drag drops cards on another pile, and the
// keyboard moves a cursor over the piles, picks up and puts down. What an
// action means (and whether it may be played now) is the mode's business:
// Input only builds the actions and hands them over through the hooks.
import { isDrag, TapTracker, DOUBLE_MS, dropTarget, tapAction, moveAction } from './gesture.js';
import { lift, pickCards, snapBack, settle, hitTest } from './drag.js';

const FOUNDATIONS = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8'];

export class Input {
  /**
   * scope: the mode's Scope, which owns every listener and timer set here.
   * o: {root (takes pointer input and focus), board (holds my s, w, c1…),
   *     found (holds f1…f8), settings ({dblclick}, read at each tap),
   *     fromFoundations (cards may leave a foundation)}.
   * hooks:
   *   view() → my board in the terms of a solo view (stock, waste,
   *     foundations, columns), or null while there is nothing to play
   *   canPick() → whether cards may be picked up now
   *   act(action, drop) → truthy when the action went out; drop is the
   *     floating copy of a drag, kept (held) until settle()
   *   instant(action) → true when a single tap acts at once instead of
   *     waiting for a possible second tap (optional)
   *   preview(action) → true when the mode shows a single tap's effect at
   *     once while the tap waits for a possible second one; the act() that
   *     follows (the tap, or the double tap instead) replaces it (optional)
   *   targets(pick) → the piles ("c3", "f5"…) that would take the cards of
   *     pick: marked .can-drop while they are dragged (optional)
   *   undo(), pass(), hint(), finish() → the keys U / Ctrl+Z, P, H and E (optional:
   *     without them the keys do nothing)
   */
  constructor(scope, o, hooks) {
    this.scope = scope;
    this.root = o.root;
    this.board = o.board || o.root;
    this.found = o.found || o.root;
    this.settings = o.settings;
    this.fromFoundations = !!o.fromFoundations;
    this.hooks = hooks;
    this.taps = new TapTracker(DOUBLE_MS);
    this.tapTimer = 0;
    this.waiting = null; // a single tap waiting for a possible second one: {pile, pick, action, shown}
    this.dropTimer = 0;
    this.press = null; // the press under way: {pick, x0, y0, id, type, drag}
    this.held = null; // the floating copy of a drop waiting for the server
    this.cursor = null; // keyboard cursor: {pile, i}
    this.sel = null; // keyboard selection: {pile, i, count}
    this.pointer();
    scope.on(document, 'keydown', (e) => this.key(e));
    scope.on(this.root, 'focusin', (e) => {
      const p = e.target.closest('[data-pile]');
      if (!p || p.dataset.pile === 'f') return;
      const i = e.target.dataset.i;
      this.cursor = { pile: p.dataset.pile, i: i != null ? +i : 0 };
    });
    // a mode that goes mid-drag takes its floating copies with it
    scope.add(() => {
      this.marks(null);
      if (this.press?.drag) snapBack(this.press.drag, false);
      this.press = null;
      this.settle(false);
    });
  }

  act(action, drop) { return action ? this.hooks.act(action, drop) : null; }

  // ---- pointer ----

  pointer() {
    const { root, scope } = this;
    scope.on(root, 'pointerdown', (e) => {
      if (e.pointerType === 'mouse' && e.button !== 0) return;
      if (this.press?.drag) { snapBack(this.press.drag, false); this.marks(null); }
      this.press = null;
      const pileEl = e.target.closest('[data-pile]');
      if (!pileEl || !root.contains(pileEl)) return this.waiting?.shown && this.decide();
      // a second press on the pile of a waiting tap may make it a double
      // tap, though the card it was on already shows where the tap sends it
      const w = this.waiting;
      const same = !!w && w.pile === pileEl.dataset.pile;
      const again = same && w.shown && this.hooks.canPick();
      if (!same) this.supersede();
      const pick = again ? { ...w.pick, els: [] } : this.pick(pileEl.dataset.pile, e.target.closest('.card'));
      if (!pick) return;
      this.press = { pick, again, x0: e.clientX, y0: e.clientY, id: e.pointerId, type: e.pointerType, drag: null };
      try { root.setPointerCapture(e.pointerId); } catch { /* synthetic event */ }
    });
    scope.on(root, 'pointermove', (e) => {
      const st = this.press;
      if (!st || e.pointerId !== st.id) return;
      const dx = e.clientX - st.x0, dy = e.clientY - st.y0;
      if (!st.drag) {
        if (!st.pick.els.length || !isDrag(dx, dy, st.type)) return;
        st.drag = lift(st.pick.els);
        // a drag is no tap: a single tap waiting on this pile is off
        this.scope.cancel(this.tapTimer);
        this.waiting = null;
        this.settle(false);
        this.marks(this.hooks.targets?.(st.pick));
      }
      st.drag.dx = dx; st.drag.dy = dy;
      st.drag.layer.style.transform = `translate(${dx}px,${dy}px)`;
    });
    const end = (e, cancel) => {
      const st = this.press;
      if (!st || e.pointerId !== st.id) return;
      this.press = null;
      if (st.drag) {
        this.marks(null);
        const over = cancel ? null : hitTest(root, e.clientX, e.clientY, st.drag);
        if (!this.drop(st.pick, over, st.drag)) snapBack(st.drag);
      } else if (!cancel) {
        this.tap(st.pick, e.clientX, e.clientY, e.timeStamp, st.again);
      }
    };
    scope.on(root, 'pointerup', (e) => end(e, false));
    scope.on(root, 'pointercancel', (e) => end(e, true));
  }

  /** pick is what a press on pile (on card, if any) takes: {pile, index, els}, els empty for a tap only. */
  pick(pile, card) {
    if (!this.hooks.canPick()) return null;
    if (card && !this.board.contains(card) && !this.found.contains(card)) return null;
    if (pile === 's') return { pile, els: [] };
    if (pile === 'f' || (pile[0] === 'f' && !this.fromFoundations) || !card || !card.classList.contains('up')) return null;
    return pickCards(pile, card);
  }

  /**
   * tap acts on a tap on pick p. With double taps on, a single tap waits
   * DOUBLE_MS for a second one (its effect may show meanwhile, through the
   * preview hook); again: a second press on a waiting tap's pile, which
   * counts only as the second tap of a double.
   */
  tap(p, x, y, ts, again) {
    this.select(null);
    const v = this.hooks.view();
    if (!v) return;
    if (p.pile === 's') return this.act(tapAction(v, 's', null, 'single'));
    if (!this.settings.dblclick) return this.act(tapAction(v, p.pile, p.index, 'single'));
    const kind = this.taps.press(`${p.pile}:${p.index}`, x, y, ts);
    if (kind === 'double') {
      // the double tap goes instead of the single one that waited
      this.scope.cancel(this.tapTimer);
      this.waiting = null;
      return this.act(tapAction(v, p.pile, p.index, 'double'));
    }
    if (again) { this.taps.reset(); return this.decide(); }
    this.supersede();
    const single = tapAction(this.hooks.view() || v, p.pile, p.index, 'single');
    if (!single) return;
    if (this.hooks.instant?.(single)) { this.taps.reset(); this.act(single); return; }
    this.waiting = { pile: p.pile, pick: p, action: single, shown: false };
    this.tapTimer = this.scope.later(() => this.decide(), DOUBLE_MS);
    this.waiting.shown = !!this.hooks.preview?.(single);
  }

  /** decide sends the single tap that waited for a second one: the gesture is known now. */
  decide() {
    const w = this.waiting;
    if (!w) return;
    this.waiting = null;
    this.scope.cancel(this.tapTimer);
    this.taps.reset();
    this.act(w.action);
  }

  /**
   * supersede ends the wait when other input comes first: a tap already on
   * screen goes out now; one that is not is dropped, as the new input
   * replaces it.
   */
  supersede() {
    if (this.waiting?.shown) return this.decide();
    this.scope.cancel(this.tapTimer);
    this.waiting = null;
  }

  /** marks puts .can-drop on the piles named in ids (none: null). */
  marks(ids) {
    for (const el of this.root.querySelectorAll('.can-drop')) el.classList.remove('can-drop');
    for (const id of ids || []) this.pileEl(id)?.classList.add('can-drop');
  }

  drop(p, over, d) {
    const to = dropTarget(p.pile, over);
    if (!to) return false;
    this.held = d;
    if (!this.act(moveAction(p.pile, p.els.length, to), d)) { this.held = null; return false; }
    // the mode may have settled it already (a move it shows at once)
    if (this.held === d) {
      this.scope.cancel(this.dropTimer);
      this.dropTimer = this.scope.later(() => this.settle(true), 4000);
    }
    return true;
  }

  /** settle removes the floating copy of the held drop: back to its place, or simply away. */
  settle(back) {
    const d = this.held;
    if (!d) return;
    this.held = null;
    this.scope.cancel(this.dropTimer);
    settle(d, back);
  }

  // ---- keyboard ----

  key(e) {
    if (document.querySelector('dialog[open]') || e.target.closest?.('input, select, textarea')) return;
    // a key ends the wait for a second tap on a tap already on screen
    if (this.waiting?.shown) this.decide();
    const v = this.hooks.view();
    if (!v) return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if ((e.ctrlKey || e.metaKey) && k === 'z' && this.hooks.undo) { e.preventDefault(); return this.hooks.undo(); }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const c = this.cursor || { pile: 's', i: 0 };
    const ncols = v.columns.length;
    const upLen = (pile) => (pile[0] === 'c' ? v.columns[+pile.slice(1) - 1].up.length : 0);
    const moveTo = (pile, i) => {
      this.cursor = { pile, i: i ?? Math.max(0, upLen(pile) - 1) };
      this.focus();
    };
    switch (k) {
      case 'ArrowRight':
      case 'ArrowLeft': {
        const order = ['s', 'w', ...FOUNDATIONS, ...Array.from({ length: ncols }, (_, j) => 'c' + (j + 1))];
        const n = order.length;
        moveTo(order[(order.indexOf(c.pile) + (k === 'ArrowRight' ? 1 : n - 1)) % n]);
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
          this.select(null);
        } else this.select(c, v);
        break;
      case 'Escape': this.select(null); break;
      case 'd': this.act(tapAction(v, 's', null, 'single')); break;
      case 'f': this.act(tapAction(v, c.pile, c.pile[0] === 'c' ? upLen(c.pile) - 1 : c.i, 'single')); break;
      case 't': this.act(tapAction(v, c.pile, c.i, 'double')); break;
      case 'w': moveTo('w', 0); break;
      case 'u': if (!this.hooks.undo) return; this.hooks.undo(); break;
      case 'p': if (!this.hooks.pass) return; this.hooks.pass(); break;
      case 'h': if (!this.hooks.hint) return; this.hooks.hint(); break;
      case 'e': if (!this.hooks.finish) return; this.hooks.finish(); break;
      default:
        if (/^[1-9]$/.test(k) && +k <= ncols) moveTo('c' + k);
        else return;
    }
    e.preventDefault();
  }

  /** select picks up the cards under cursor c of board view v (nothing: null). */
  select(c, v) {
    let count = 0;
    if (c?.pile[0] === 'c') count = v.columns[+c.pile.slice(1) - 1].up.length - c.i;
    else if (c?.pile === 'w') count = v.waste.length ? 1 : 0;
    else if (c?.pile[0] === 'f' && this.fromFoundations) count = v.foundations[+c.pile.slice(1) - 1].length ? 1 : 0;
    this.sel = count > 0 ? { pile: c.pile, i: c.pile[0] === 'c' ? c.i : 0, count } : null;
    this.markSel();
  }

  pileEl(id) { return (id[0] === 'f' ? this.found : this.board).querySelector(`[data-pile="${id}"]`); }

  markSel() {
    for (const el of this.root.querySelectorAll('.card.sel')) el.classList.remove('sel');
    const s = this.sel;
    if (!s) return;
    for (const el of this.pileEl(s.pile)?.querySelectorAll('.card.up') || []) {
      if (s.pile[0] === 'c' ? +el.dataset.i >= s.i : el.classList.contains('top')) el.classList.add('sel');
    }
  }

  /** focus puts the focus on the card (or pile) under the cursor. */
  focus() {
    const c = this.cursor;
    const pileEl = c && this.pileEl(c.pile);
    if (!pileEl) return;
    let el = pileEl;
    if (c.pile[0] === 'c') el = pileEl.querySelector(`.card.up[data-i="${c.i}"]`) || pileEl.querySelector('.card.up.top') || pileEl;
    else if (c.pile !== 's') el = pileEl.querySelector('.card.top') || pileEl;
    if (el.tabIndex < 0 && el !== pileEl) el.tabIndex = -1;
    el.focus({ preventScroll: true });
  }

  /**
   * redraw runs draw (which replaces the cards) and then shows the selection
   * again, and the focus where it was: on the table, at the cursor.
   */
  redraw(draw) {
    const focused = this.root.contains(document.activeElement);
    draw();
    this.markSel();
    if (focused) this.focus();
  }
}
