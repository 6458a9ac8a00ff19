// Race mode: one race on screen — its waiting room, its table and its
// result. My moves show at once (optimistic) and are confirmed or taken back
// by the server; the opponent's board and the shared foundations update
// live. Another race (a rematch, joining) is a new RaceMode, and the lobby is
// its own mode (lobby.js): app.js disposes of the one it leaves.
import { GameConn } from '../conn.js';
import { Input } from '../input.js';
import { Scope } from '../scope.js';
import { t } from '../i18n.js';
import { reducedMotion } from '../settings.js';
import * as M from './model.js';
import { Pending } from '../pending.js';
import { mountBoards, layoutBoards, renderBoard, renderFound, cardRects } from './table.js';
import { skeleton, INV } from './skeleton.js';
import { errText } from '../notice.js';
import { Fingerprint, CheckPanel, rememberCommitment } from './fair.js';
import { screenMethods } from './screen.js';
import { routeMethods } from './routes.js';

// what app.js takes from the race screens, loaded only for races
export { LobbyMode } from './lobby.js';
export { resolve } from './routes.js';
export { ready, INV } from './skeleton.js';
export { ArenaMode } from './arena.js';
export { ArenaLink } from './arenalink.js';

const $ = (s, r = document) => r.querySelector(s);

export class RaceMode {
  /**
   * ui: {settings, toast, translate, banner(down), me, openRace(v, o), toLobby(),
   * toArena(id), arenaLink(id) (the open link to arena id, or null)}.
   * v: the race's view; o: {watch (read-only), offer ({invite}: the join
   * offer shown while it waits)}.
   */
  constructor(ui, v, { watch = false, offer = null } = {}) {
    this.ui = ui;
    this.me = ui.me || {};
    this.watch = watch;
    this.joinOffer = offer;
    this.view = null;
    this.shown = null;
    this.seat = null;
    this.mine = new Pending(); // my unanswered actions
    this.offlineSince = null;
    this.presence = {};
    this.resultShown = false;
    this.scope = new Scope();
    const sec = this.sec = skeleton();
    this.dialogs = [...sec.querySelectorAll('dialog')];
    document.body.dataset.mode = 'race';
    document.body.append(sec, ...this.dialogs);
    this.scope.add(() => { sec.remove(); this.dialogs.forEach((d) => d.remove()); });
    this.table = $('.rtable', sec);
    this.play = $('.rplay', sec);
    Object.assign(this, mountBoards(this.table, this.play));
    this.print = new Fingerprint(this.scope);
    $('[data-testid=chosen-mark]', sec).after(this.print.el);
    this.check = new CheckPanel();
    this.input = new Input(this.scope, { root: this.play, board: this.board, found: this.found, settings: ui.settings }, {
      view: () => (this.shown && this.seat ? this.bv() : null),
      canPick: () => !!this.shown && !!this.seat && this.shown.status === 'playing',
      act: (a, drop) => this.act(a, false, drop),
      // a card that can go up goes at once (every millisecond counts in a
      // race); otherwise a single tap waits for a second one, as in solo
      instant: (a) => !!M.applyLocal(this.display(), this.seat, a),
      pass: () => { if (this.view.turns === 'alternating') this.act({ type: 'pass' }); },
    });
    this.scope.on(window, 'resize', () => this.scope.frame('render', () => this.render()));
    const q = (id) => $(`[data-testid=${id}]`, sec);
    q('to-lobby').onclick = () => this.leave();
    q('wait-lobby').onclick = () => this.leave();
    q('wait-join').onclick = () => this.acceptJoin();
    q('resign').onclick = () => this.askResign();
    q('help').onclick = () => $('#dlg-help').showModal();
    q('settings').onclick = () => $('#b-set').click();
    q('pass').onclick = () => this.act({ type: 'pass' });
    q('claim').onclick = () => this.act({ type: 'claim' });
    q('invite-copy').onclick = () => this.copyInvite();
    q('show-result').onclick = () => this.view && this.showResult(this.view, true);
    q('arena-back').onclick = () => this.leave();
    const res = $('#dlg-result');
    $('[data-testid=result-block]', res).onclick = () => this.blockOpponent();
    res.addEventListener('close', () => {
      if (res.returnValue === 'rematch') this.rematch();
      else if (res.returnValue === 'decline') this.decline();
      else if (res.returnValue === 'lobby') this.leave();
    });
    const rs = $('#dlg-resign');
    rs.addEventListener('close', () => { if (rs.returnValue === 'yes') this.act({ type: 'resign' }, true); });
    this.scope.every(() => this.tick(), 250);
    ui.translate();
    this.open(v);
  }

  /** open connects to race v. */
  open(v) {
    if (v.invite) this.invite = v.invite;
    else { try { this.invite = sessionStorage.getItem(INV + v.id) || ''; } catch { this.invite = ''; } }
    const inv = this.joinOffer?.invite ? `&invite=${encodeURIComponent(this.joinOffer.invite)}` : '';
    history.replaceState(null, '', `/?race=${encodeURIComponent(v.id)}${this.watch ? '&watch=1' : inv}`);
    const live = (fn) => this.scope.live(fn);
    this.conn = this.scope.add(new GameConn(v.id, {
      onView: live((nv) => this.onView(nv)),
      onReject: live((code, msg, action, id) => this.rejected(code, action, id)),
      onStatus: live(({ down }) => this.ui.banner(down)),
      onMessage: live((m) => this.message(m)),
      onAck: live((id, seq) => this.mine.acked(id, seq)),
    }));
    this.conn.start(v);
  }

  /** dispose releases the race's socket, listeners, timers and screen. */
  dispose() {
    this.scope.dispose();
    this.conn = null;
    this.ui.banner(false);
  }

  /** redraw draws again after a change of settings or language. */
  redraw() { this.render(); }

  // ---- server → screen ----

  message(m) {
    const v = this.view;
    if (m.type === 'presence' && v) {
      const s = v.seats?.[m.seat - 1];
      if (s) s.online = !!m.online;
      this.presence[m.seat] = { claimAt: m.claimAt, graceSeconds: m.graceSeconds, at: Date.now() };
      if (m.seat !== this.seat && v.status !== 'playing') this.conn?.refresh();
      if (m.seat !== this.seat && this.seat) this.say(t(m.online ? 'race.oppBack' : 'race.oppLeft', { name: this.name(m.seat) }));
      this.render();
    } else if (m.type === 'rematch') {
      this.conn?.refresh(); // the finished race's view says where the offer stands
      if (m.rematch?.status === 'offered' && m.rematch.by !== this.seat && this.seat) this.say(t('race.offer', { name: this.name(m.rematch.by) }));
    } else if (m.type === 'event' && this.seat && m.seat === this.seat && m.seq > (v?.seq ?? -1)) {
      this.mine.event(m.seq);
    }
  }

  onView(v) {
    const prev = this.shown;
    const was = this.view;
    this.view = v;
    this.received = Date.now();
    this.seat = this.watch ? null : M.mySeat(v, this.me.id);
    this.seen = rememberCommitment(v);
    this.mine.seen(v.seq, this.conn?.pending);
    if (was && was.status === 'waiting' && v.status === 'playing' && this.seat) {
      this.say(t('race.arrived', { name: this.name(3 - this.seat) }));
    }
    this.paint(prev);
    if (v.seq !== was?.seq) this.input.settle(false);
  }

  rejected(code, action, id) {
    const had = this.mine.reject(id);
    this.input.settle(true);
    if (code !== 'too_late' && code !== 'illegal_move') this.ui.toast(errText({ code }));
    if (had || code === 'too_late') this.paint(this.shown);
    if (code === 'too_late') this.tooLate(action);
  }

  /** tooLate flashes a mark on the card that went back (or over my board). */
  tooLate(action) {
    const el = $('[data-testid=too-late]', this.sec);
    el.textContent = t('race.tooLate');
    el.hidden = true;
    const tb = this.table.getBoundingClientRect();
    const pile = action?.from && this.board.querySelector(`[data-pile="${action.from}"]`);
    const card = pile && (pile.querySelector('.card.up.top') || [...pile.querySelectorAll('.card')].pop());
    const r = (card || this.board).getBoundingClientRect();
    el.hidden = false;
    const w = el.offsetWidth / 2 + 4, h = el.offsetHeight / 2 + 4;
    const x = Math.min(Math.max(r.left + r.width / 2 - tb.left, w), tb.width - w);
    // just above the card, so that its face stays readable; below it if there is no room
    let y = card ? r.top - tb.top - h + 8 : r.top + r.height / 2 - tb.top;
    if (card && y < h) y = r.bottom - tb.top + h - 8;
    y = Math.min(Math.max(y, h), tb.height - h);
    el.style.left = x + 'px';
    el.style.top = y + 'px';
    this.scope.cancel(this.lateTimer);
    this.lateTimer = this.scope.later(() => { el.hidden = true; }, 1200);
  }

  /** display is the confirmed view with my pending moves applied on top. */
  display() {
    return this.mine.over(this.view, (d, a) => M.applyLocal(d, this.seat, a), { skip: true });
  }

  name(seat) {
    const p = this.view?.seats?.[seat - 1]?.player;
    if (seat === this.seat) return t('race.you');
    if (this.isBot(seat)) return t('race.computer');
    if (p?.deleted) return t('account.deletedPlayer');
    return p?.name || (p ? t('race.someone') : t('race.nobody'));
  }

  /** isBot tells the server's bot's seat. */
  isBot(seat) {
    const s = this.view?.seats?.[seat - 1];
    return !!(s?.player?.bot || s?.bot);
  }

  render() { this.paint(null); }

  /** paint draws the shown view; cards that changed pile fly from where they were. */
  paint(prev) {
    if (!this.view) return;
    const v = this.display();
    this.shown = v;
    const before = prev && !reducedMotion() ? cardRects(this.table) : null;
    const held = this.input.held;
    if (before && held) {
      // my dropped cards fly from where they were let go
      held.els.forEach((el, i) => {
        const k = `${this.seat}:${el.dataset.card}`;
        const b = before.get(k);
        if (b) b.rect = held.clones[i].getBoundingClientRect();
      });
    }
    const me = this.seat || 1, them = 3 - me;
    const L = this.L = layoutBoards(this.table, v.draw);
    this.input.redraw(() => this.boards(v, L));
    if (before) this.fly(before);
    // a drop shown at once needs its floating copy no more
    if (held && this.mine.some((e) => e.opt && e.drop === held)) this.input.settle(false);
    this.hud(v, me, them);
    this.table.removeAttribute('aria-busy');
    const b = document.body.dataset;
    b.seq = this.view.seq;
    b.status = v.status;
    b.seat = this.seat || '';
    b.watch = this.seat ? '0' : '1';
    b.ready = '1';
  }

  /** boards draws the foundations and both boards of the shown view v with layout L. */
  boards(v, L) {
    const me = this.seat || 1, them = 3 - me;
    const names = [this.name(1), this.name(2)];
    const empty = { stock: 0, waste: [], columns: Array.from({ length: 7 }, () => ({ down: 0, up: [] })) };
    const seatOr = (s) => v.seats?.[s - 1] && v.seats[s - 1].columns ? v.seats[s - 1] : empty;
    renderFound(this.found, v, L.f, names);
    const meH = this.board.querySelector('.rcols').clientHeight;
    renderBoard(this.opp, seatOr(them), {
      S: L.opp, seat: them, name: names[them - 1], bot: this.isBot(them), vertical: true, colH: L.oppH, mine: false,
      draw: v.draw, redeal: v.redeal, blocked: !!v.seats?.[them - 1]?.blocked, online: v.seats?.[them - 1]?.online,
    });
    renderBoard(this.board, seatOr(me), {
      S: L.me, seat: me, name: this.seat ? t('race.you') : names[me - 1], vertical: !L.portrait, colH: meH || L.me.ch * 4, mine: !!this.seat,
      draw: v.draw, redeal: v.redeal, blocked: !!v.seats?.[me - 1]?.blocked, online: v.seats?.[me - 1]?.online,
    });
    if (!meH) {
      const h = this.board.querySelector('.rcols').clientHeight;
      if (h) renderBoard(this.board, seatOr(me), {
        S: L.me, seat: me, name: this.seat ? t('race.you') : names[me - 1], vertical: !L.portrait, colH: h, mine: !!this.seat,
        draw: v.draw, redeal: v.redeal, blocked: !!v.seats?.[me - 1]?.blocked, online: v.seats?.[me - 1]?.online,
      });
    }
  }

  fly(before) {
    for (const el of this.table.querySelectorAll('.card.up[data-card]')) {
      const seat = el.dataset.seat || el.closest('[data-seat]')?.dataset.seat;
      const b = before.get(`${seat}:${el.dataset.card}`);
      const pile = el.closest('[data-pile]')?.dataset.pile;
      const board = el.closest('[data-board]')?.dataset.board || 'f';
      const bBoard = b?.board;
      if (!b || (b.pile === pile && bBoard === board) || !el.animate) continue;
      const r = el.getBoundingClientRect();
      const sx = b.rect.width / (r.width || 1);
      el.classList.add('last');
      const ms = board === 'f' && seat != this.seat ? 320 : 170;
      // a flying card must not catch the next tap until it lands; the timer
      // covers hidden tabs, where animations never finish
      el.style.pointerEvents = 'none';
      const land = () => { el.style.pointerEvents = ''; };
      const timer = this.scope.later(land, ms + 1000);
      el.animate([
        { transform: `translate(${b.rect.left - r.left}px,${b.rect.top - r.top}px) scale(${sx})`, transformOrigin: '0 0', zIndex: 30 },
        { transform: 'none', transformOrigin: '0 0', zIndex: 30 },
      ], { duration: ms, easing: 'ease-out' }).onfinish = () => { this.scope.cancel(timer); land(); };
    }
  }

  // ---- actions ----

  /**
   * act sends action (force: also when the race is not being played) and
   * returns my entry for it, or null; drop is the floating copy of the drag
   * that made it.
   */
  act(action, force, drop = null) {
    const v = this.view;
    if (!action || !this.conn || !v || !this.seat) return null;
    if (v.status !== 'playing' && !force) { this.ui.toast(t(v.status === 'over' ? 'err.game_over' : 'race.waiting')); return null; }
    if (v.turns === 'alternating' && v.turn !== this.seat && !['resign', 'claim'].includes(action.type)) {
      this.ui.toast(t('err.not_your_turn'));
      return null;
    }
    const opt = !!M.applyLocal(this.display(), this.seat, action);
    const id = this.conn.send(action);
    const e = this.mine.add(id, action, opt, { drop });
    if (opt) this.paint(this.shown);
    return e;
  }

  bv() { return M.boardView(this.shown, this.seat); }
}

Object.assign(RaceMode.prototype, routeMethods, screenMethods);
