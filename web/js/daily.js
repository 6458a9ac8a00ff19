// The daily challenge screen (/?mode=daily): today's challenges (one deal per
// mode, the same for everyone, its code kept by the server until the day
// closes) with the player's state in each, the time until the day closes,
// each challenge's leaderboard with the player's own row, and the daily
// streak. Play starts the player's one game of a challenge, or goes back to
// it. A mode like the others: dispose() takes it off the page.
import { api } from './api.js';
import { Scope } from './scope.js';
import { t, lang, formatTime, countdown } from './i18n.js';
import { el } from './cards.js';

const num = (n) => new Intl.NumberFormat(lang()).format(n);

/** modeLabel words a challenge's mode: "Easy: draw 1", "Hard: draw 3". */
export const modeLabel = (c) => t(c.draw === 3 ? 'newGame.hard' : 'newGame.easy');

/** stateText says where the player stands in a challenge. */
export function stateText(c) {
  if (c.state === 'won') return c.rank ? t('daily.wonRank', { rank: num(c.rank), n: num(c.players) }) : t('daily.won');
  return t(c.state === 'playing' ? 'daily.playing' : 'daily.new');
}

/** rowText words one leaderboard entry. */
export function rowText(e) {
  if (!e.won) return t('daily.notWon');
  return t(e.clean ? 'daily.rowClean' : 'daily.rowAssisted', { time: formatTime(e.seconds ?? 0), moves: num(e.moves ?? 0) });
}

export class DailyMode {
  /** ui: {error(e), open(view): shows a solo game}. */
  constructor(ui) {
    this.ui = ui;
    this.scope = new Scope();
    this.data = null;
    this.boards = {};
    const root = this.root = el('main', 'stats daily');
    root.id = 'daily';
    root.dataset.testid = 'daily';
    root.innerHTML = `<div class="scard">
  <p class="back"><a href="/" class="link" data-testid="daily-home" data-i18n="home.back"></a></p>
  <h1 data-i18n="daily.title"></h1>
  <p class="note" data-testid="daily-closes"></p>
  <p class="note" data-testid="daily-streak"></p>
  <div class="dlist" data-testid="daily-list"></div>
</div>`;
    for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
    document.querySelector('#home').after(root);
    this.scope.add(() => root.remove());
    const b = document.body.dataset;
    b.mode = 'daily';
    for (const k of ['seat', 'watch', 'status', 'seq']) delete b[k];
    b.ready = '0';
    this.scope.every(() => this.tick(), 1000);
    this.load();
  }

  async load() {
    try {
      const d = await api('GET', '/api/v1/daily');
      const boards = await Promise.all(d.challenges.map((c) =>
        api('GET', `/api/v1/daily/${d.day}/${c.mode}/leaderboard?limit=10`).catch(() => null)));
      if (this.scope.disposed) return;
      this.data = d;
      d.challenges.forEach((c, i) => { this.boards[c.mode] = boards[i]; });
    } catch (e) {
      if (this.scope.disposed) return;
      this.ui.error(e);
    }
    this.paint();
    document.body.dataset.ready = '1';
  }

  tick() {
    if (!this.data) return;
    const left = Math.max(0, (Date.parse(this.data.closesAt) - Date.now()) / 1000);
    this.root.querySelector('[data-testid=daily-closes]').textContent = t('daily.closes', { time: left >= 3600 ? formatTime(left) : countdown(left) });
    if (left === 0 && !this.reloading) { this.reloading = true; this.scope.later(() => { this.reloading = false; this.load(); }, 1500); }
  }

  async play(c) {
    try {
      this.ui.open(await api('POST', `/api/v1/daily/${c.mode}`));
    } catch (e) { this.ui.error(e); }
  }

  paint() {
    const d = this.data;
    const list = this.root.querySelector('[data-testid=daily-list]');
    if (!d) { list.replaceChildren(); return; }
    this.tick();
    this.root.querySelector('[data-testid=daily-streak]').textContent = t('daily.streak', { current: num(d.streak.current), best: num(d.streak.best) });
    list.replaceChildren(...d.challenges.map((c) => this.card(c)));
  }

  /** card is one challenge: its mode, the player's state, Play, and its leaderboard. */
  card(c) {
    const sec = el('section', 'dcard');
    sec.dataset.mode = c.mode;
    sec.dataset.testid = 'daily-challenge';
    const h = el('h2', null, modeLabel(c));
    h.id = 'daily-' + c.mode;
    sec.setAttribute('aria-labelledby', h.id);
    const st = el('p', 'dstate', stateText(c));
    st.dataset.testid = 'daily-state';
    st.dataset.state = c.state;
    const play = el('button', 'pill hot', t(c.state === 'new' ? 'daily.play' : c.state === 'playing' ? 'daily.continue' : 'daily.see'));
    play.type = 'button';
    play.dataset.testid = 'daily-play';
    this.scope.on(play, 'click', () => this.play(c));
    sec.append(h, st, play);
    const board = this.boards[c.mode];
    if (board) sec.append(this.board(board));
    return sec;
  }

  /** board is a leaderboard: its first entries, then the player's own row when it is not among them. */
  board(b) {
    const wrap = el('div', 'dboard');
    const cap = el('h3', null, t('daily.board', { n: num(b.players) }));
    const ol = el('ol', 'dranks');
    ol.dataset.testid = 'daily-board';
    const row = (e, mine) => {
      const li = el('li', mine ? 'mine' : null);
      if (mine) li.dataset.testid = 'daily-you';
      const name = mine ? t('race.you') : e.player?.name || '';
      li.append(el('span', 'r', e.rank ? num(e.rank) : '–'), el('span', 'n', name), el('span', 'v', rowText(e)));
      if (name) li.querySelector('.n').title = mine && e.player?.name ? e.player.name : name;
      if (mine && e.ranked === false) li.append(el('span', 'note', t(e.unranked === 'too_fast' ? 'daily.unrankedFast' : 'daily.unrankedNew')));
      return li;
    };
    const you = b.you;
    for (const e of b.entries) ol.append(row(e, !!you && e.player?.id === you.player?.id));
    if (you && !b.entries.some((e) => e.player?.id === you.player?.id)) ol.append(row(you, true));
    if (!ol.children.length) ol.append(el('li', 'empty', t('daily.nobody')));
    wrap.append(cap, ol);
    return wrap;
  }

  redraw() {
    for (const e of this.root.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
    this.paint();
  }

  dispose() { this.scope.dispose(); }
}
