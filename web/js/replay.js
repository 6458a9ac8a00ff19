// The replay viewer: a finished game played again from its replay
// (GET /api/v1/games/{id}/replay) — the view before the first action and one
// delta per action, folded in order as live deltas are (fold.js), so the
// viewer needs no rules and no deal. Play, pause, a step either way, the
// speed, and a slider to any move; a share link (/?replay=<id>) and, for a
// solo game, "Play this deal".
import { fold } from './fold.js';
import { t, formatScore, formatTime } from './i18n.js';
import { Scope } from './scope.js';
import { layoutTable, renderTable } from './solo/table.js';

/** SPEEDS are the replay's speeds: milliseconds between moves. */
export const SPEEDS = { '0.5': 1200, 1: 600, 2: 300, 4: 150 };

/** positions folds a replay into the view at every move: [start, after move 1, …]. */
export function positions(rp) {
  const out = [rp.start];
  rp.steps.forEach((d, i) => out.push(fold(out[i], rp.actions[i].seq, d)));
  return out;
}

/** elapsed is the playing time up to move i: the gaps between the actions, each capped at a minute. */
export function elapsed(actions, i) {
  let s = 0;
  for (let k = 1; k < i; k++) s += Math.min(60, (Date.parse(actions[k].at) - Date.parse(actions[k - 1].at)) / 1000);
  return s;
}

const ICON = {
  home: '<svg viewBox="0 0 24 24"><path d="M12 3 2 12h3v8h6v-6h2v6h6v-8h3z"/></svg>',
  first: '<svg viewBox="0 0 24 24"><path d="M5 5h2v14H5zm3 7 10-7v14z"/></svg>',
  prev: '<svg viewBox="0 0 24 24"><path d="M6 12 17 5v14z"/></svg>',
  play: '<svg viewBox="0 0 24 24"><path d="M7 5v14l12-7z"/></svg>',
  pause: '<svg viewBox="0 0 24 24"><path d="M6 5h4v14H6zm8 0h4v14h-4z"/></svg>',
  next: '<svg viewBox="0 0 24 24"><path d="M18 12 7 19V5z"/></svg>',
  last: '<svg viewBox="0 0 24 24"><path d="M17 5h2v14h-2zm-1 7L6 19V5z"/></svg>',
};

function skeleton() {
  const sec = document.createElement('section');
  sec.className = 'replay';
  sec.dataset.testid = 'replay';
  sec.setAttribute('aria-labelledby', 'replay-title');
  sec.innerHTML = `
<div class="rbar">
  <div class="rtop">
    <button type="button" class="ib" data-testid="replay-home" data-i18n-label="home.back">${ICON.home}</button>
    <h1 id="replay-title" class="rtitle"><span data-i18n="replay.title"></span> <span class="code" data-testid="replay-code"></span></h1>
    <span class="rinfo" data-testid="replay-info"></span>
  </div>
  <div class="rctl">
    <button type="button" class="ib" data-testid="replay-first" data-i18n-label="replay.first">${ICON.first}</button>
    <button type="button" class="ib" data-testid="replay-prev" data-i18n-label="replay.prev">${ICON.prev}</button>
    <button type="button" class="ib hot" data-testid="replay-play" aria-pressed="false" data-i18n-label="replay.play">${ICON.play}</button>
    <button type="button" class="ib" data-testid="replay-next" data-i18n-label="replay.next">${ICON.next}</button>
    <button type="button" class="ib" data-testid="replay-last" data-i18n-label="replay.last">${ICON.last}</button>
    <span class="rseek"><input type="range" min="0" value="0" data-testid="replay-range" data-i18n-label="replay.jump">
    <output data-testid="replay-pos" aria-live="off"></output></span>
    <label class="rspeed"><span class="lbl" data-i18n="replay.speed"></span>
      <select data-testid="replay-speed">${Object.keys(SPEEDS).sort((a, b) => a - b).map((k) => `<option value="${k}">${k}×</option>`).join('')}</select></label>
  </div>
  <div class="racts">
    <button type="button" class="pill" data-testid="replay-share" data-i18n="replay.share"></button>
    <button type="button" class="pill" data-testid="replay-deal" data-i18n="replay.deal" hidden></button>
  </div>
</div>`;
  return sec;
}

export class ReplayMode {
  /**
   * rp: the replay. ui: {toast(text), home(), playDeal(code), race: the race
   * table module (race replays only), ready(): its style sheet loaded}.
   */
  constructor(ui, rp) {
    this.ui = ui;
    this.rp = rp;
    this.views = positions(rp);
    this.i = 0;
    this.timer = 0;
    this.speed = '1';
    this.scope = new Scope();
    const sec = this.sec = skeleton();
    const b = document.body.dataset;
    b.mode = 'replay';
    b.kind = rp.kind;
    for (const k of ['seat', 'watch', 'status', 'seq']) delete b[k];
    document.body.append(sec);
    this.scope.add(() => { sec.remove(); delete document.body.dataset.kind; });
    this.q = (id) => sec.querySelector(`[data-testid=${id}]`);
    if (rp.kind === 'race') this.raceTable();
    else this.table = document.querySelector('#table');
    const range = this.q('replay-range');
    range.max = rp.actions.length;
    this.scope.on(range, 'input', () => { this.pause(); this.go(+range.value); });
    this.scope.on(this.q('replay-first'), 'click', () => { this.pause(); this.go(0); });
    this.scope.on(this.q('replay-prev'), 'click', () => { this.pause(); this.go(this.i - 1); });
    this.scope.on(this.q('replay-next'), 'click', () => { this.pause(); this.go(this.i + 1); });
    this.scope.on(this.q('replay-last'), 'click', () => { this.pause(); this.go(this.views.length - 1); });
    this.scope.on(this.q('replay-play'), 'click', () => (this.timer ? this.pause() : this.play()));
    this.scope.on(this.q('replay-speed'), 'change', (e) => { this.speed = e.target.value; if (this.timer) { this.pause(); this.play(); } });
    this.scope.on(this.q('replay-home'), 'click', () => ui.home());
    this.scope.on(this.q('replay-share'), 'click', () => this.share());
    const deal = this.q('replay-deal');
    deal.hidden = rp.kind !== 'solo';
    this.scope.on(deal, 'click', () => ui.playDeal(rp.code));
    this.q('replay-speed').value = this.speed;
    this.q('replay-code').textContent = rp.code;
    this.scope.on(window, 'keydown', (e) => this.key(e));
    this.scope.on(window, 'resize', () => this.scope.frame('render', () => this.draw()));
    this.go(0);
    b.ready = '1';
  }

  /** raceTable builds the two boards and the shared foundations of a race replay. */
  raceTable() {
    const box = document.createElement('section');
    box.className = 'race';
    box.innerHTML = '<div class="rgame"><main class="rtable" data-testid="race-table"><div class="rplay"></div></main></div>';
    this.table = box.querySelector('.rtable');
    Object.assign(this, this.ui.race.mountBoards(this.table, box.querySelector('.rplay')));
    this.sec.prepend(box);
  }

  /** go shows the position after move i (0: the deal). */
  go(i) {
    this.i = Math.max(0, Math.min(this.views.length - 1, i));
    this.draw();
    if (this.i === this.views.length - 1) this.pause();
  }

  draw() {
    const v = this.views[this.i];
    if (this.rp.kind === 'race') this.drawRace(v);
    else renderTable(this.table, v, layoutTable(this.table, v));
    this.table.removeAttribute('aria-busy');
    const n = this.rp.actions.length;
    this.q('replay-range').value = this.i;
    this.q('replay-range').setAttribute('aria-valuetext', t('replay.pos', { i: this.i, n }));
    this.q('replay-pos').textContent = `${this.i} / ${n}`;
    this.q('replay-info').textContent = this.info(v);
    for (const [id, off] of [['replay-first', this.i === 0], ['replay-prev', this.i === 0], ['replay-next', this.i === n], ['replay-last', this.i === n]]) this.q(id).disabled = off;
    document.body.dataset.seq = v.seq;
  }

  /** info words the position: a solo game's score, moves and time; a race's cards up. */
  info(v) {
    if (this.rp.kind === 'race') {
      const [a, b] = [1, 2].map((s) => v.foundations.flat().filter((e) => e.seat === s).length);
      return t('replay.raceInfo', { a, b, one: this.name(v, 1), two: this.name(v, 2) });
    }
    return t('replay.soloInfo', { score: formatScore(v.score, v.scoring), moves: v.moves, time: formatTime(elapsed(this.rp.actions, this.i)) });
  }

  name(v, seat) { return this.views[0].seats?.[seat - 1]?.player?.name || t('race.seat', { n: seat }); }

  drawRace(v) {
    const { layoutBoards, renderBoard, renderFound } = this.ui.race;
    const L = layoutBoards(this.table, v.draw);
    const names = [this.name(v, 1), this.name(v, 2)];
    const start = this.views[0];
    renderFound(this.found, v, L.f, names);
    const o = (seat) => ({ seat, name: names[seat - 1], bot: !!start.seats?.[seat - 1]?.player?.bot, mine: false, draw: v.draw, redeal: v.redeal, blocked: !!v.seats[seat - 1].blocked });
    renderBoard(this.opp, v.seats[1], { ...o(2), S: L.opp, vertical: true, colH: L.oppH });
    const colH = this.board.querySelector('.rcols').clientHeight || L.me.ch * 4;
    renderBoard(this.board, v.seats[0], { ...o(1), S: L.me, vertical: !L.portrait, colH });
  }

  play() {
    if (this.i === this.views.length - 1) this.go(0);
    this.playing(true);
    this.timer = this.scope.every(() => this.go(this.i + 1), SPEEDS[this.speed]);
  }

  pause() {
    if (!this.timer) return;
    this.scope.stop(this.timer);
    this.timer = 0;
    this.playing(false);
  }

  /** playing shows the play button pressed, offering a pause (on), or offering to play. */
  playing(on) {
    const btn = this.q('replay-play');
    const label = t(on ? 'replay.pause' : 'replay.play');
    btn.setAttribute('aria-pressed', String(on));
    btn.innerHTML = on ? ICON.pause : ICON.play;
    btn.setAttribute('aria-label', label);
    btn.title = label;
  }

  key(e) {
    if (e.target.closest?.('input, select, textarea, dialog') || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = { ArrowLeft: () => { this.pause(); this.go(this.i - 1); }, ArrowRight: () => { this.pause(); this.go(this.i + 1); },
      Home: () => { this.pause(); this.go(0); }, End: () => { this.pause(); this.go(this.views.length - 1); },
      ' ': () => (this.timer ? this.pause() : this.play()) }[e.key];
    if (!k) return;
    e.preventDefault();
    k();
  }

  async share() {
    const url = `${location.origin}/?replay=${encodeURIComponent(this.rp.id)}`;
    try {
      if (navigator.share && matchMedia('(pointer: coarse)').matches) await navigator.share({ title: t('replay.title'), url });
      else { await navigator.clipboard.writeText(url); this.ui.toast(t('replay.copied')); }
    } catch { this.ui.toast(url); }
  }

  redraw() { this.draw(); }

  dispose() {
    this.pause();
    this.scope.dispose();
  }
}
