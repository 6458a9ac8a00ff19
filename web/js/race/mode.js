// Race mode: the lobby, the waiting room, the race table and the result.
// My moves show at once (optimistic) and are confirmed or taken back by the
// server; the opponent's board and the shared foundations update live.
import { api } from '../api.js';
import { GameConn } from '../conn.js';
import { attachDrag, pickCards, settle } from '../drag.js';
import { TapTracker, DOUBLE_MS, dropTarget, tapAction, moveAction } from '../gesture.js';
import { t } from '../i18n.js';
import { reducedMotion } from '../settings.js';
import { celebrate } from '../celebrate.js';
import * as M from './model.js';
import { raceLayout } from './layout.js';
import { boardEl, foundEl, renderBoard, renderFound, cardRects } from './table.js';
import { Lobby, describe } from './lobby.js';

const ORDER = ['s', 'w', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'];
const INV = 'dsol.invite.';
const ICON = {
  back: '<svg viewBox="0 0 24 24"><path d="M15.4 5 9 11.5l6.4 6.5-1.5 1.5L6 11.5 13.9 3.5z"/></svg>',
  flag: '<svg viewBox="0 0 24 24"><path d="M5 3h2v18H5zm3 1h10l-2 4 2 4H8z"/></svg>',
  set: '<svg viewBox="0 0 24 24"><path d="M3 5h10v2H3zm14 0h4v2h-4zm-3-2h2v6h-2zM3 11h4v2H3zm8 0h10v2H11zM8 9h2v6H8zm-5 8h12v2H3zm16 0h2v2h-2zm-3-2h2v6h-2z"/></svg>',
};
const $ = (s, r = document) => r.querySelector(s);
const errText = (e) => {
  const code = e?.code || 'generic';
  return t('err.' + code) === 'err.' + code ? t('err.generic') : t('err.' + code);
};

function skeleton() {
  const sec = document.createElement('section');
  sec.id = 'race';
  sec.className = 'race';
  sec.innerHTML = `
<div class="lobby" data-testid="lobby" hidden></div>
<div class="rgame" hidden>
  <header class="hud rhud">
    <button class="ib" data-testid="to-lobby" data-i18n-label="race.lobby">${ICON.back}</button>
    <div class="stat rme"><small class="nm"></small><b data-testid="count-me">0</b></div>
    <span class="vs" aria-hidden="true">:</span>
    <div class="stat rthem"><small class="nm"></small><b data-testid="count-them">0</b></div>
    <button class="ib" data-testid="resign" data-i18n-label="race.resign">${ICON.flag}</button>
    <button class="ib" data-testid="help" data-i18n-label="hud.help"><b>?</b></button>
    <button class="ib" data-testid="settings" data-i18n-label="hud.settings">${ICON.set}</button>
  </header>
  <div class="rstrip">
    <span class="turn" data-testid="turn"></span>
    <span class="clock" data-testid="turn-clock" hidden></span>
    <button class="pill" data-testid="pass" data-i18n="race.pass" hidden></button>
    <span class="dc" data-testid="opp-offline" hidden></span>
    <button class="pill hot" data-testid="claim" data-i18n="race.claim" hidden></button>
    <button class="pill" data-testid="show-result" data-i18n="race.result" hidden></button>
  </div>
  <main class="rtable" data-testid="race-table" aria-busy="true">
    <div class="rplay"></div>
    <div class="late" data-testid="too-late" role="status" hidden></div>
    <div class="wait" data-testid="waiting" hidden>
      <h2 data-i18n="race.waiting"></h2>
      <p class="wrules"></p>
      <label class="winv"><span data-i18n="race.invite"></span>
        <span class="row"><input readonly data-testid="invite-link"><button type="button" class="pill" data-testid="invite-copy" data-i18n="race.copy"></button></span></label>
      <p class="wnote" data-i18n="race.waitNote"></p>
      <button type="button" class="pill" data-testid="wait-lobby" data-i18n="race.lobby"></button>
    </div>
  </main>
  <p class="sr" aria-live="assertive"></p>
</div>
<dialog id="dlg-result" data-testid="result">
  <form method="dialog">
    <h2 data-testid="result-title"></h2>
    <p class="summary" data-testid="result-counts"></p>
    <p data-testid="result-reason"></p>
    <p class="tie" data-testid="result-tie" hidden></p>
    <p class="series" data-testid="series" hidden></p>
    <p class="offer" data-testid="rematch-offer" hidden></p>
    <button class="primary" value="rematch" data-testid="rematch" data-i18n="race.rematch"></button>
    <button value="lobby" data-testid="result-lobby" data-i18n="race.lobby"></button>
    <button value="close" class="quiet" data-i18n="game.close"></button>
  </form>
</dialog>
<dialog id="dlg-resign" data-testid="resign-dialog">
  <form method="dialog">
    <h2 data-i18n="race.resignQ"></h2>
    <p data-i18n="race.resignNote"></p>
    <button class="primary" value="yes" data-testid="resign-yes" data-i18n="race.resign"></button>
    <button value="no" class="quiet" data-testid="resign-no" data-i18n="newGame.cancel"></button>
  </form>
</dialog>`;
  return sec;
}

/** startRace takes over the page for racing. ui: {settings, toast, translate, banner(down), me}. */
export async function startRace(ui) {
  if (!$('link[href="/css/race.css"]')) {
    const l = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/css/race.css' });
    document.head.append(l);
    await new Promise((r) => { l.onload = l.onerror = r; setTimeout(r, 1500); });
  }
  document.body.dataset.mode = 'race';
  const sec = skeleton();
  document.body.append(sec);
  for (const d of sec.querySelectorAll('dialog')) document.body.append(d);
  const race = new RaceMode(sec, ui);
  ui.translate();
  await race.route(new URLSearchParams(location.search));
  return race;
}

export class RaceMode {
  constructor(sec, ui) {
    this.sec = sec;
    this.ui = ui;
    this.me = ui.me || {};
    this.view = null;
    this.shown = null;
    this.seat = null;
    this.watch = false;
    this.conn = null;
    this.mine = [];
    this.taps = new TapTracker(DOUBLE_MS);
    this.game = $('.rgame', sec);
    this.table = $('.rtable', sec);
    this.play = $('.rplay', sec);
    this.opp = boardEl('opp');
    this.found = foundEl();
    this.board = boardEl('me');
    this.table.prepend(this.opp);
    this.play.append(this.found, this.board);
    this.lobby = new Lobby($('.lobby', sec), {
      create: (body) => this.create(body),
      join: (id) => this.joinPublic(id),
      error: (e) => ui.toast(errText(e)),
      message: errText,
    });
    attachDrag(this.play, {
      pick: (pile, card) => this.pick(pile, card),
      tap: (p, x, y, ts) => this.tap(p, x, y, ts),
      drop: (p, over, d) => this.drop(p, over, d),
      start: () => { clearTimeout(this.tapTimer); this.settleDrop(false); },
    });
    addEventListener('resize', () => { cancelAnimationFrame(this.raf); this.raf = requestAnimationFrame(() => this.render()); });
    document.addEventListener('keydown', (e) => this.key(e));
    this.play.addEventListener('focusin', (e) => {
      const p = e.target.closest('[data-pile]');
      if (!p || p.dataset.pile === 'f') return;
      this.cursor = { pile: p.dataset.pile, i: e.target.dataset.i != null ? +e.target.dataset.i : 0 };
    });
    const q = (id) => $(`[data-testid=${id}]`, sec);
    q('to-lobby').onclick = () => this.leave();
    q('wait-lobby').onclick = () => this.leave();
    q('resign').onclick = () => this.askResign();
    q('help').onclick = () => $('#dlg-help').showModal();
    q('settings').onclick = () => $('#b-set').click();
    q('pass').onclick = () => this.act({ type: 'pass' });
    q('claim').onclick = () => this.act({ type: 'claim' });
    q('invite-copy').onclick = () => this.copyInvite();
    q('show-result').onclick = () => this.view && this.showResult(this.view, true);
    const res = $('#dlg-result');
    res.addEventListener('close', () => {
      if (res.returnValue === 'rematch') this.rematch();
      else if (res.returnValue === 'lobby') this.toLobby();
    });
    const rs = $('#dlg-resign');
    rs.addEventListener('close', () => { if (rs.returnValue === 'yes') this.act({ type: 'resign' }, true); });
    setInterval(() => this.tick(), 250);
  }

  // ---- routes ----

  async route(q) {
    const id = q.get('race');
    if (!id) return this.toLobby();
    this.watch = q.get('watch') === '1';
    try {
      if (q.get('invite') && !this.watch) {
        let v;
        try {
          v = await api('POST', `/api/v1/races/${encodeURIComponent(id)}/join`, { invite: q.get('invite') });
        } catch (e) {
          if (e.code !== 'conflict' && e.code !== 'forbidden') throw e;
          v = await api('GET', `/api/v1/games/${encodeURIComponent(id)}`); // already seated, or full
          if (M.mySeat(v, this.me.id) == null && !M.cancelled(v)) this.ui.toast(t('race.full'));
        }
        return this.open(v);
      }
      let v = await api('GET', `/api/v1/games/${encodeURIComponent(id)}`);
      if (!this.watch && v.status === 'waiting' && M.mySeat(v, this.me.id) == null) {
        try { v = await api('POST', `/api/v1/races/${encodeURIComponent(id)}/join`); } catch { /* private: watch */ }
      }
      this.open(v);
    } catch (e) {
      this.ui.toast(errText(e));
      this.toLobby();
    }
  }

  toLobby() {
    this.close();
    $('#dlg-result').open && $('#dlg-result').close();
    history.replaceState(null, '', '/?mode=race');
    this.game.hidden = true;
    this.lobby.show();
    document.body.dataset.status = 'lobby';
    document.body.dataset.ready = '1';
  }

  /** leave goes back to the lobby; the creator leaving the waiting room
   * cancels the race, so that it leaves the lobby too. Someone who joined
   * meanwhile wins: the race stays and starts. */
  async leave() {
    const v = this.view;
    if (v && v.status === 'waiting' && this.seat === 1 && !this.game.hidden) {
      try {
        await api('POST', `/api/v1/races/${encodeURIComponent(v.id)}/cancel`);
      } catch (e) {
        if (e.code === 'conflict') { this.ui.toast(errText(e)); this.conn?.refresh(); return; }
        // anything else (offline, gone): leave anyway
      }
    }
    this.toLobby();
  }

  async create(body) {
    const v = await api('POST', '/api/v1/races', body);
    if (v.invite) try { sessionStorage.setItem(INV + v.id, v.invite); } catch { /* private mode */ }
    this.watch = false;
    this.open(v);
  }

  async joinPublic(id) {
    this.watch = false;
    this.open(await api('POST', `/api/v1/races/${encodeURIComponent(id)}/join`));
  }

  async rematch() {
    const old = this.view;
    if (!old) return;
    try {
      let v = await api('POST', `/api/v1/races/${encodeURIComponent(old.id)}/rematch`);
      if (v && !v.seats && v.id) v = await api('GET', `/api/v1/games/${encodeURIComponent(v.id)}`);
      if (v?.invite) try { sessionStorage.setItem(INV + v.id, v.invite); } catch { /* private mode */ }
      this.open(v);
    } catch (e) {
      this.ui.toast(errText(e));
    }
  }

  open(v) {
    this.close();
    this.lobby.hide();
    this.game.hidden = false;
    this.view = null;
    this.shown = null;
    this.mine = [];
    this.sel = null;
    this.offlineSince = null;
    this.presence = {};
    this.resultShown = false;
    if (v.invite) this.invite = v.invite;
    else { try { this.invite = sessionStorage.getItem(INV + v.id) || ''; } catch { this.invite = ''; } }
    history.replaceState(null, '', `/?race=${encodeURIComponent(v.id)}${this.watch ? '&watch=1' : ''}`);
    this.conn = new GameConn(v.id, {
      onView: (nv) => this.onView(nv),
      onReject: (code, msg, action, id) => this.rejected(code, action, id),
      onStatus: ({ down }) => this.ui.banner(down),
      onMessage: (m) => this.message(m),
      onAck: (id, seq) => { const e = this.mine.find((x) => x.id === id); if (e) e.seq = seq; },
    });
    this.conn.start(v);
  }

  close() {
    if (this.conn) this.conn.close();
    this.conn = null;
    this.settleDrop(false);
    this.ui.banner(false);
  }

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
    } else if (m.type === 'event' && this.seat && m.seat === this.seat && m.seq > (v?.seq ?? -1)) {
      const e = this.mine.find((x) => x.seq == null);
      if (e) e.seq = m.seq;
    }
  }

  onView(v) {
    const prev = this.shown;
    const was = this.view;
    this.view = v;
    this.received = Date.now();
    this.seat = this.watch ? null : M.mySeat(v, this.me.id);
    const pending = new Set((this.conn?.pending || []).map((p) => p.id));
    this.mine = this.mine.filter((e) => (e.seq != null ? e.seq > v.seq : pending.has(e.id)));
    if (was && was.status === 'waiting' && v.status === 'playing' && this.seat) {
      this.say(t('race.arrived', { name: this.name(3 - this.seat) }));
    }
    this.paint(prev);
    if (this.pendingDrop && v.seq !== was?.seq) this.settleDrop(false);
  }

  rejected(code, action, id) {
    const had = this.mine.some((e) => e.id === id && e.opt);
    this.mine = this.mine.filter((e) => e.id !== id);
    if (this.pendingDrop) this.settleDrop(true);
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
    clearTimeout(this.lateTimer);
    this.lateTimer = setTimeout(() => { el.hidden = true; }, 1200);
  }

  /** display is the confirmed view with my pending moves applied on top. */
  display() {
    let d = this.view;
    for (const e of this.mine) {
      if (!e.opt) continue;
      const n = M.applyLocal(d, this.seat, e.action);
      if (n) d = n;
    }
    return d;
  }

  name(seat) {
    const p = this.view?.seats?.[seat - 1]?.player;
    if (seat === this.seat) return t('race.you');
    return p?.name || (p ? t('race.someone') : t('race.nobody'));
  }

  render() { this.paint(null); }

  /** paint draws the shown view; cards that changed pile fly from where they were. */
  paint(prev) {
    if (!this.view) return;
    const v = this.display();
    this.shown = v;
    const before = prev && !reducedMotion() ? cardRects(this.table) : null;
    if (before && this.pendingDrop) {
      // my dropped cards fly from where they were let go
      this.pendingDrop.els.forEach((el, i) => {
        const k = `${this.seat}:${el.dataset.card}`;
        const b = before.get(k);
        if (b) b.rect = this.pendingDrop.clones[i].getBoundingClientRect();
      });
    }
    const me = this.seat || 1, them = 3 - me;
    const L = raceLayout({ width: this.table.clientWidth, height: this.table.clientHeight, draw: v.draw });
    this.L = L;
    this.table.classList.toggle('portrait', L.portrait);
    this.table.style.setProperty('--pad', L.pad + 'px');
    this.table.style.setProperty('--oppH', L.oppH + 'px');
    const names = [this.name(1), this.name(2)];
    const empty = { stock: 0, waste: [], columns: Array.from({ length: 7 }, () => ({ down: 0, up: [] })) };
    const seatOr = (s) => v.seats?.[s - 1] && v.seats[s - 1].columns ? v.seats[s - 1] : empty;
    renderFound(this.found, v, L.f, names);
    const meH = this.board.querySelector('.rcols').clientHeight;
    renderBoard(this.opp, seatOr(them), {
      S: L.opp, seat: them, name: names[them - 1], vertical: true, colH: L.oppH, mine: false,
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
    if (before) this.fly(before);
    if (this.pendingDrop && this.mine.some((e) => e.opt && e.drop === this.pendingDrop)) this.settleDrop(false);
    this.markSel();
    if (this.cursor && this.play.contains(document.activeElement)) this.focusCursor();
    this.hud(v, me, them);
    this.table.removeAttribute('aria-busy');
    const b = document.body.dataset;
    b.seq = this.view.seq;
    b.status = v.status;
    b.seat = this.seat || '';
    b.watch = this.seat ? '0' : '1';
    b.ready = '1';
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
      const timer = setTimeout(land, ms + 1000);
      el.animate([
        { transform: `translate(${b.rect.left - r.left}px,${b.rect.top - r.top}px) scale(${sx})`, transformOrigin: '0 0', zIndex: 30 },
        { transform: 'none', transformOrigin: '0 0', zIndex: 30 },
      ], { duration: ms, easing: 'ease-out' }).onfinish = () => { clearTimeout(timer); land(); };
    }
  }

  hud(v, me, them) {
    const q = (id) => $(`[data-testid=${id}]`, this.sec);
    const c = M.counts(v);
    $('.rme .nm', this.sec).textContent = this.name(me);
    $('.rthem .nm', this.sec).textContent = this.name(them);
    $('.rme', this.sec).dataset.seat = me;
    $('.rthem', this.sec).dataset.seat = them;
    q('show-result').hidden = v.status !== 'over' || !v.result; // a cancelled race has none
    q('count-me').textContent = c[me - 1];
    q('count-them').textContent = c[them - 1];
    q('count-me').setAttribute('aria-label', t('race.countOf', { name: this.name(me), n: c[me - 1] }));
    q('count-them').setAttribute('aria-label', t('race.countOf', { name: this.name(them), n: c[them - 1] }));
    const seated = !!this.seat, playing = v.status === 'playing';
    q('resign').hidden = !seated;
    q('resign').disabled = !playing;
    const turn = q('turn');
    const alt = v.turns === 'alternating';
    let txt;
    const gone = M.cancelled(v);
    if (v.status === 'waiting') txt = t('race.waiting');
    else if (v.status === 'over') txt = t(gone ? 'race.cancelled' : 'race.over');
    else if (!alt) txt = seated ? t('race.go') : t('race.watching');
    else if (v.turn === this.seat) txt = t('race.yourTurn');
    else txt = t('race.theirTurn', { name: this.name(v.turn) });
    if (!seated && v.status !== 'waiting') txt = `${t('race.watching')} · ${txt === t('race.watching') ? describe(v) : txt}`;
    turn.textContent = txt;
    turn.classList.toggle('mine', alt && playing && v.turn === this.seat && seated);
    turn.dataset.turn = v.turn ?? '';
    const pass = q('pass');
    pass.hidden = !(alt && seated && playing);
    pass.disabled = v.turn !== this.seat;
    this.mySeatTurn = alt && playing && v.turn === this.seat;
    if (this.mySeatTurn && !this.wasMyTurn) this.say(t('race.yourTurn'));
    this.wasMyTurn = this.mySeatTurn;

    // waiting room
    const wait = q('waiting');
    wait.hidden = v.status !== 'waiting' && !gone;
    wait.classList.toggle('gone', gone);
    if (gone && !this.goneSaid) this.say(t('race.cancelled'));
    this.goneSaid = gone;
    if (!wait.hidden) {
      $('h2', wait).textContent = t(gone ? 'race.cancelled' : 'race.waiting');
      $('.wnote', wait).textContent = t(gone ? 'race.cancelledNote' : 'race.waitNote');
      $('.wrules', wait).textContent = describe(v);
      const inv = q('invite-link');
      const url = this.invite ? `${location.origin}/?race=${encodeURIComponent(v.id)}&invite=${encodeURIComponent(this.invite)}` : `${location.origin}/?race=${encodeURIComponent(v.id)}`;
      inv.value = url;
      $('.winv', wait).hidden = !seated || gone;
    }
    clearInterval(this.waitPoll);
    if (v.status === 'waiting') this.waitPoll = setInterval(() => this.conn?.refresh(), 3000);

    // opponent offline → grace countdown
    const opp = v.seats?.[them - 1];
    if (seated && playing && opp && opp.online === false) {
      if (this.offlineSince == null) this.offlineSince = this.presence[them]?.at ?? Date.now();
    } else this.offlineSince = null;
    this.tick();

    if (v.status === 'over' && !this.resultShown) {
      this.resultShown = true;
      this.showResult(v);
    }
    if (v.status === 'over') this.offer(v);
  }

  /** tick updates the claim countdown and the turn clock. */
  tick() {
    const v = this.view;
    if (!v || this.game.hidden) return;
    const q = (id) => $(`[data-testid=${id}]`, this.sec);
    const now = Date.now();
    const dc = q('opp-offline'), claim = q('claim');
    if (this.offlineSince != null && v.status === 'playing') {
      const them = 3 - this.seat;
      const p = this.presence[them] || {};
      const at = M.claimDeadline({
        claimAt: p.claimAt ?? v.claimAt ?? v.seats?.[them - 1]?.claimAt,
        graceSeconds: p.graceSeconds ?? v.graceSeconds,
        offlineSince: this.offlineSince,
      });
      const left = M.secondsLeft(at, now);
      dc.hidden = false;
      dc.textContent = left > 0 ? t('race.dropped', { name: this.name(them), time: M.countdown(left) }) : t('race.droppedLong', { name: this.name(them) });
      claim.hidden = left > 0;
    } else { dc.hidden = true; claim.hidden = true; }
    const clock = q('turn-clock');
    const end = v.status === 'playing' && v.turns === 'alternating' ? M.turnDeadline(v, this.received) : null;
    clock.hidden = end == null;
    if (end != null) {
      const left = M.secondsLeft(end, now);
      clock.textContent = M.countdown(left);
      clock.classList.toggle('low', left <= 10);
    }
  }

  showResult(v, now) {
    const o = M.outcome(v, this.seat);
    if (!o) return;
    const q = (id) => $(`[data-testid=${id}]`, $('#dlg-result'));
    const wName = typeof o.who === 'number' ? this.name(o.who) : this.name(3 - (this.seat || 2));
    q('result-title').textContent = o.who === 'me' ? t('race.won') : o.who === 'draw' ? t('race.draw') : t('race.winner', { name: wName });
    const me = this.seat || 1;
    q('result-counts').textContent = t('race.final', { a: this.name(me), n: o.mine, b: this.name(3 - me), m: o.theirs });
    const w = v.result.winner;
    const loser = w ? this.name(3 - w) : '';
    const mine = w != null && w === this.seat;
    q('result-reason').textContent = t('race.reason.' + (o.reason === 'out' && mine ? 'outMe' : o.reason), { name: w ? this.name(w) : '', loser });
    const tie = q('result-tie');
    tie.hidden = !o.tiebreak;
    if (o.tiebreak) tie.textContent = t('race.tie.' + (o.tiebreak === 'last' && mine ? 'lastMe' : o.tiebreak), { name: w ? this.name(w) : '' });
    const s = M.seriesInfo(v);
    const ser = q('series');
    ser.hidden = !s;
    if (s) {
      let txt = s.game ? t('race.seriesGame', { k: s.game, n: s.of }) : t('race.seriesOf', { n: s.of });
      const tot = s.totals || s.wins;
      if (tot) txt += ' · ' + t('race.seriesScore', { a: this.name(me), n: tot[me - 1], b: this.name(3 - me), m: tot[2 - me] });
      if (s.done && s.winner != null) txt += ' · ' + (s.winner === this.seat ? t('race.seriesWon') : t('race.seriesWinner', { name: this.name(s.winner) }));
      ser.textContent = txt;
    }
    q('rematch').hidden = !this.seat;
    q('rematch').textContent = s && !s.done ? t('race.nextGame') : t('race.rematch');
    if (o.who === 'me' && !now) {
      const all = [];
      for (const el of this.found.querySelectorAll('.card.up')) all.push({ card: el.dataset.card, rect: el.getBoundingClientRect() });
      celebrate(all);
    }
    this.say($('#dlg-result h2').textContent);
    const d = $('#dlg-result');
    // a refresh may replace the view object meanwhile: still this race, still over
    setTimeout(() => { if (!d.open && this.view?.id === v.id && this.view.status === 'over') d.showModal(); }, now ? 0 : o.who === 'me' ? 700 : 300);
  }

  offer(v) {
    const next = v.rematch ?? v.next ?? v.nextRace;
    const el = $('[data-testid=rematch-offer]', $('#dlg-result'));
    el.hidden = !next || !this.seat;
    if (next) el.textContent = t('race.offer');
  }

  say(msg) {
    const sr = $('.sr', this.sec);
    sr.textContent = '';
    setTimeout(() => { sr.textContent = msg; }, 30);
  }

  askResign() {
    if (!this.seat || this.view?.status !== 'playing') return;
    $('#dlg-resign').showModal();
  }

  async copyInvite() {
    const inp = $('[data-testid=invite-link]', this.sec);
    if (navigator.share && matchMedia('(pointer: coarse)').matches) {
      try { await navigator.share({ title: t('race.title'), url: inp.value }); return; } catch { /* cancelled */ }
    }
    try { await navigator.clipboard.writeText(inp.value); } catch { inp.select(); document.execCommand('copy'); }
    this.ui.toast(t('race.copied'));
  }

  // ---- actions ----

  act(action, force) {
    const v = this.view;
    if (!action || !this.conn || !v || !this.seat) return null;
    if (v.status !== 'playing' && !force) { this.ui.toast(t(v.status === 'over' ? 'err.game_over' : 'race.waiting')); return null; }
    if (v.turns === 'alternating' && v.turn !== this.seat && !['resign', 'claim'].includes(action.type)) {
      this.ui.toast(t('err.not_your_turn'));
      return null;
    }
    const opt = !!M.applyLocal(this.display(), this.seat, action);
    const id = this.conn.send(action);
    const e = { id, action, opt, seq: null, drop: null };
    this.mine.push(e);
    if (opt) this.paint(this.shown);
    return e;
  }

  pick(pile, card) {
    const v = this.shown;
    if (!v || !this.seat || v.status !== 'playing') return null;
    if (card && !this.board.contains(card)) return null;
    if (pile === 's') return { pile, els: [] };
    if (pile === 'f' || pile[0] === 'f' || !card || !card.classList.contains('up')) return null;
    return pickCards(pile, card);
  }

  bv() { return M.boardView(this.shown, this.seat); }

  tap(p, x, y, ts) {
    this.sel = null;
    this.markSel();
    const bv = this.bv();
    if (p.pile === 's') return this.act(tapAction(bv, 's', null, 'single'));
    if (!this.ui.settings.dblclick) return this.act(tapAction(bv, p.pile, p.index, 'single'));
    const kind = this.taps.press(`${p.pile}:${p.index}`, x, y, ts);
    clearTimeout(this.tapTimer);
    if (kind === 'double') return this.act(tapAction(bv, p.pile, p.index, 'double'));
    const single = tapAction(bv, p.pile, p.index, 'single');
    if (!single) return;
    // a card that can go up goes at once (every millisecond counts in a race);
    // otherwise wait to see whether a second tap follows, as in solo
    if (M.applyLocal(this.display(), this.seat, single)) { this.taps.reset(); this.act(single); }
    else this.tapTimer = setTimeout(() => this.act(single), DOUBLE_MS);
  }

  /** relang redraws the texts after a language change. */
  relang() {
    this.render();
    if (!this.lobby.root.hidden) this.lobby.paint();
  }

  drop(p, over, d) {
    const to = dropTarget(p.pile, over);
    if (!to || !this.view) return false;
    this.pendingDrop = d;
    const e = this.act(moveAction(p.pile, p.els.length, to));
    if (!e) { this.pendingDrop = null; return false; }
    e.drop = d;
    if (e.opt) { this.settleDrop(false); return true; }
    clearTimeout(this.dropTimer);
    this.dropTimer = setTimeout(() => this.settleDrop(true), 4000);
    return true;
  }

  settleDrop(back) {
    const d = this.pendingDrop;
    if (!d) return;
    this.pendingDrop = null;
    clearTimeout(this.dropTimer);
    settle(d, back);
  }

  // ---- keyboard ----

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
  }

  markSel() {
    for (const el of this.play.querySelectorAll('.card.sel')) el.classList.remove('sel');
    const s = this.sel;
    if (!s) return;
    const pileEl = this.board.querySelector(`[data-pile="${s.pile}"]`);
    for (const el of pileEl?.querySelectorAll('.card.up') || []) {
      if (s.pile[0] === 'c' ? +el.dataset.i >= s.i : el.classList.contains('top')) el.classList.add('sel');
    }
  }

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
  }
}
