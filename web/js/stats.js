// The statistics screen (/?mode=stats): the player's figures per solo mode
// (draw 1 or 3, Normal or Vegas) and for races, from GET /api/v1/me/stats,
// with a plain SVG chart of the latest games of the mode, and a reset that
// asks first. A mode like the others: dispose() takes it off the page.
import { api } from './api.js';
import { Scope } from './scope.js';
import { t, lang, formatScore, formatTime, ratingText } from './i18n.js';

/** tabs are the views of the screen: the four solo modes, then races. */
export const TABS = [
  { id: 'd1-normal', draw: 1, scoring: 'normal' },
  { id: 'd1-vegas', draw: 1, scoring: 'vegas' },
  { id: 'd3-normal', draw: 3, scoring: 'normal' },
  { id: 'd3-vegas', draw: 3, scoring: 'vegas' },
  { id: 'race' },
];

const num = (n) => new Intl.NumberFormat(lang()).format(n);
const pct = (x) => new Intl.NumberFormat(lang(), { style: 'percent', maximumFractionDigits: 0 }).format(x);
const dash = '—';

/** tabLabel words a tab: "Draw 1 · Vegas", or "Races". */
export function tabLabel(tab) {
  if (!tab.draw) return t('stats.races');
  return t('home.mode', {
    draw: t(tab.draw === 3 ? 'race.d3' : 'race.d1'),
    scoring: t(tab.scoring === 'vegas' ? 'newGame.vegas' : 'newGame.normal'),
  });
}

/** soloFigures lists the [label, value] pairs of a solo mode's entry. */
export function soloFigures(m) {
  const opt = (v, f) => (v == null ? dash : f(v));
  return [
    ['played', num(m.played)],
    ['won', num(m.won)],
    ['winRate', m.played ? pct(m.winRate) : dash],
    ['streak', num(m.streak)],
    ['bestStreak', num(m.bestStreak)],
    ['bestScore', opt(m.bestScore, (v) => formatScore(v, m.scoring))],
    ['fastestWin', opt(m.fastestWin, formatTime)],
    ['fewestMoves', opt(m.fewestMoves, num)],
    ['clean', num(m.clean)],
    ['assisted', num(m.assisted)],
  ];
}

/** raceFigures lists the [label, value] pairs of the races. */
export function raceFigures(r) {
  return [
    ['played', num(r.played)],
    ['won', num(r.won)],
    ['lost', num(r.lost)],
    ['drawn', num(r.drawn)],
    ['rating', ratingText(r.rating, r.provisional)],
    ['vsBot', num(r.bot?.played ?? 0)],
  ];
}

/** chartSummary is the text alternative of the chart of recent games. */
export function chartSummary(recent) {
  if (!recent.length) return t('stats.noGames');
  const won = recent.filter((g) => g.won).length;
  const open = recent.filter((g) => g.playing).length;
  let s = t('stats.chartSummary', { n: recent.length, won: num(won), lost: num(recent.length - won - open) });
  if (open) s += ' ' + t('stats.chartOpen');
  return s;
}

const SVG = 'http://www.w3.org/2000/svg';
const W = 300, H = 80, GAP = 2;

/**
 * chart draws the latest games as bars, oldest on the left: a bar's height
 * is the game's score against the best of them (a baseline at zero, so a
 * Vegas loss goes below it), its colour says won, lost or still in play.
 */
export function chart(recent, scoring) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('class', 'chart');
  svg.setAttribute('data-testid', 'stats-chart');
  const title = document.createElementNS(SVG, 'title');
  title.textContent = chartSummary(recent);
  svg.append(title);
  svg.setAttribute('aria-label', title.textContent);
  const scores = recent.map((g) => g.score ?? 0);
  const hi = Math.max(1, ...scores), lo = Math.min(0, ...scores);
  const zero = H * hi / (hi - lo);
  const bw = W / 30;
  recent.forEach((g, i) => {
    const s = g.score ?? 0;
    const h = Math.max(6, Math.abs(s) * H / (hi - lo));
    const r = document.createElementNS(SVG, 'rect');
    r.setAttribute('x', String(i * bw + GAP / 2));
    r.setAttribute('width', String(bw - GAP));
    r.setAttribute('y', String(s >= 0 ? zero - h : zero));
    r.setAttribute('height', String(h));
    r.setAttribute('class', g.won ? 'won' : g.playing ? 'open' : 'lost');
    const tip = document.createElementNS(SVG, 'title');
    tip.textContent = t(g.won ? 'stats.gameWon' : g.playing ? 'stats.gameOpen' : 'stats.gameLost',
      { score: formatScore(s, scoring), moves: num(g.moves ?? 0) });
    r.append(tip);
    svg.append(r);
  });
  const base = document.createElementNS(SVG, 'line');
  base.setAttribute('x1', '0');
  base.setAttribute('x2', String(W));
  base.setAttribute('y1', String(zero));
  base.setAttribute('y2', String(zero));
  svg.append(base);
  return svg;
}

export class StatsMode {
  /** ui: {toast(text), error(e)}. */
  constructor(ui) {
    this.ui = ui;
    this.scope = new Scope();
    this.root = document.querySelector('#stats');
    this.stats = null;
    this.tab = TABS[0].id;
    const q = (id) => this.root.querySelector(`[data-testid=${id}]`);
    this.select = q('stats-mode');
    this.body = q('stats-body');
    this.confirm = document.querySelector('#dlg-reset');
    this.scope.on(this.select, 'change', () => { this.tab = this.select.value; this.paint(); });
    this.scope.on(q('stats-reset'), 'click', () => this.confirm.showModal());
    this.scope.on(this.confirm, 'close', () => { if (this.confirm.returnValue === 'reset') this.reset(); });
    const b = document.body.dataset;
    b.mode = 'stats';
    for (const k of ['seat', 'watch', 'status', 'seq']) delete b[k];
    b.ready = '0';
    this.root.hidden = false;
    this.load(api('GET', '/api/v1/me/stats'));
  }

  async load(p) {
    try {
      const st = await p;
      if (this.scope.disposed) return;
      this.stats = st;
    } catch (e) {
      if (this.scope.disposed) return;
      this.ui.error(e);
    }
    this.paint();
    document.body.dataset.ready = '1';
  }

  async reset() {
    document.body.dataset.ready = '0';
    await this.load(api('POST', '/api/v1/me/stats/reset'));
    if (!this.scope.disposed && this.stats) this.ui.toast(t('stats.resetDone'));
  }

  /** paint writes the tab options and the figures of the tab on screen. */
  paint() {
    this.select.replaceChildren(...TABS.map((tab) => {
      const o = document.createElement('option');
      o.value = tab.id;
      o.textContent = tabLabel(tab);
      o.selected = tab.id === this.tab;
      return o;
    }));
    const st = this.stats;
    if (!st) { this.body.replaceChildren(); return; }
    const tab = TABS.find((x) => x.id === this.tab);
    const parts = [];
    const h2 = document.createElement('h2');
    h2.textContent = tabLabel(tab);
    parts.push(h2);
    let figures, recent = null;
    if (tab.draw) {
      const m = st.solo.find((x) => x.draw === tab.draw && x.scoring === tab.scoring);
      figures = soloFigures(m);
      recent = m.recent;
    } else {
      figures = raceFigures(st.race);
    }
    const dl = document.createElement('dl');
    dl.className = 'figures';
    for (const [k, v] of figures) {
      const div = document.createElement('div');
      const dt = document.createElement('dt');
      dt.textContent = t('stats.' + k);
      const dd = document.createElement('dd');
      dd.textContent = v;
      dd.dataset.testid = 'stat-' + k;
      div.append(dt, dd);
      dl.append(div);
    }
    parts.push(dl);
    if (recent) {
      const fig = document.createElement('figure');
      const cap = document.createElement('figcaption');
      cap.textContent = t('stats.recent');
      fig.append(cap, chart(recent, tab.scoring));
      parts.push(fig);
    } else {
      const p = document.createElement('p');
      p.className = 'note';
      p.textContent = t('stats.ratingNote');
      parts.push(p);
    }
    if (st.since) {
      const p = document.createElement('p');
      p.className = 'note';
      p.dataset.testid = 'stats-since';
      p.textContent = t('stats.since', { date: new Intl.DateTimeFormat(lang(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(st.since)) });
      parts.push(p);
    }
    this.body.replaceChildren(...parts);
  }

  redraw() { this.paint(); }

  dispose() {
    this.scope.dispose();
    this.root.hidden = true;
  }
}
