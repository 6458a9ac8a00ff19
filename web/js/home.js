// The first screen: the game's name, what it is, and the ways in — Play (a
// deal in the last draw and scoring used), Race, Continue (shown only when
// there are unfinished games), other deals and codes, help and settings.
// It is a mode like a game or the lobby: app.js disposes of it when the
// player moves on, and its listeners go with it.
import { api } from './api.js';
import { Scope } from './scope.js';
import { t, formatScore } from './i18n.js';

/** unfinished fetches the player's solo games still in play, newest first as the server lists them. */
export async function unfinished() {
  const r = await api('GET', '/api/v1/games?status=playing');
  return (Array.isArray(r) ? r : r?.games || []).filter((g) => (g.kind || 'solo') === 'solo' && g.status !== 'won');
}

/** resumeItems fills the list ul with one button per game; open(id) opens one. */
export function resumeItems(ul, games, open) {
  ul.replaceChildren();
  if (!games.length) {
    const li = document.createElement('li');
    li.textContent = t('newGame.none');
    ul.append(li);
  }
  for (const g of games.slice(0, 20)) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.game = g.id;
    b.textContent = t('newGame.started', { code: g.code, score: formatScore(g.score ?? 0, g.scoring), moves: g.moves ?? 0 });
    b.onclick = () => open(g.id);
    li.append(b);
    ul.append(li);
  }
}

/** playLabel words the deal Play starts: its draw and its scoring. */
export const playLabel = (s) => t('home.mode', {
  draw: t(s.draw === 3 ? 'newGame.hard' : 'newGame.easy'),
  scoring: t(s.scoring === 'vegas' ? 'newGame.vegas' : 'newGame.normal'),
});

export class HomeMode {
  /** ui: {settings, play(), resume(), games(), options(), help(), prefs()}. */
  constructor(ui) {
    this.ui = ui;
    this.scope = new Scope();
    this.root = document.querySelector('#home');
    const q = (id) => this.root.querySelector(`[data-testid=${id}]`);
    this.cont = q('continue');
    this.scope.on(q('play'), 'click', () => ui.play());
    this.scope.on(this.cont, 'click', () => ui.resume());
    this.scope.on(q('home-new'), 'click', () => ui.options());
    this.scope.on(q('home-games'), 'click', () => ui.games());
    this.scope.on(q('home-help'), 'click', () => ui.help());
    this.scope.on(q('home-settings'), 'click', () => ui.prefs());
    const b = document.body.dataset;
    b.mode = 'home';
    for (const k of ['seat', 'watch', 'status', 'seq']) delete b[k];
    this.root.hidden = false;
    this.paint();
    b.ready = '0';
    // ready once Continue is shown or not: it may move the buttons below it
    this.count().then(() => { if (!this.scope.disposed) b.ready = '1'; });
  }

  /** count shows Continue, with how many, if there is a game to go back to. */
  async count() {
    let n = 0;
    try { n = (await unfinished()).length; } catch { /* Continue is a convenience */ }
    if (this.scope.disposed) return;
    this.cont.hidden = !n;
    this.cont.querySelector('[data-testid=continue-count]').textContent = n;
  }

  /** paint writes what depends on the settings and the language. */
  paint() {
    this.root.querySelector('[data-testid=play-mode]').textContent = playLabel(this.ui.settings);
  }

  redraw() { this.paint(); }

  dispose() {
    this.scope.dispose();
    this.root.hidden = true;
  }
}
