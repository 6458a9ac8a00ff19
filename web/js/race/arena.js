// Arena mode: one arena's screen — its settings and countdown, the
// player's place (join, pause, resume, the points of their last race), the
// standings, and once over its podium and its races with their replays.
// It follows the arena through the ArenaLink that app.js keeps open (the
// player is paired only while it is); a pairing takes the player to the
// race through app.js, not through this screen.
import { api } from '../api.js';
import { t } from '../i18n.js';
import { Scope } from '../scope.js';
import { errText } from '../notice.js';
import * as A from './arenamodel.js';
import * as M from './model.js';

const $ = (s, r = document) => r.querySelector(s);
const enc = encodeURIComponent;
const FLAME = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M13 1c.6 3.7 5.5 6.3 5.5 12.2A6.5 6.5 0 0 1 5.5 13.8c0-2.9 1.6-4.9 3.1-6.3.2 2 1 3.4 2.3 4.2C11.2 8 10.9 4.4 13 1z"/></svg>';

export class ArenaMode {
  /**
   * ui: {translate, toast, me, link(id) (the ArenaLink of arena id, opened
   * if need be), openArenaRace(id) (the player's race in play), toLobby()}.
   */
  constructor(ui, id) {
    this.ui = ui;
    this.id = id;
    this.scope = new Scope();
    this.link = ui.link(id);
    this.races = null; // the arena's races, fetched once it is over
    this.last = null; // {race, text}: the result of the player's last race
    const sec = document.createElement('section');
    sec.id = 'race';
    sec.className = 'race';
    const root = this.root = document.createElement('div');
    root.className = 'lobby arena';
    root.dataset.testid = 'arena';
    sec.append(root);
    document.body.dataset.mode = 'race';
    document.body.append(sec);
    this.scope.add(() => sec.remove());
    root.innerHTML = `
<div class="lwrap">
  <p class="aback"><a href="/?mode=race" data-testid="arena-lobby" data-i18n="arena.toLobby"></a></p>
  <header class="lcard ahead">
    <h1 data-i18n="arena.title"></h1>
    <p class="arules" data-testid="arena-rules"></p>
    <p class="aclock" data-testid="arena-clock"></p>
    <p class="acount" data-testid="arena-count"></p>
  </header>
  <section class="lcard amine" data-testid="arena-you" aria-live="polite">
    <div class="ascored" data-testid="arena-scored" hidden>
      <p class="apts" data-testid="arena-points"></p>
      <p class="ares" data-testid="arena-result"></p>
    </div>
    <p class="anote" data-testid="arena-paused" role="alert" hidden></p>
    <p data-testid="arena-status"></p>
    <div class="lbtns">
      <button type="button" class="primary" data-testid="arena-join" data-i18n="arena.join" hidden></button>
      <button type="button" class="primary" data-testid="arena-resume" data-i18n="arena.resume" hidden></button>
      <button type="button" class="primary" data-testid="arena-to-race" data-i18n="arena.toRace" hidden></button>
      <button type="button" data-testid="arena-pause" data-i18n="arena.pause" hidden></button>
      <button type="button" data-testid="arena-share" data-i18n="arena.share"></button>
    </div>
  </section>
  <section class="lcard apodium" data-testid="arena-podium" aria-labelledby="arena-podium-h" hidden>
    <h2 id="arena-podium-h" data-i18n="arena.podium"></h2>
    <ol class="apod"></ol>
  </section>
  <section class="lcard" aria-labelledby="arena-standings-h">
    <h2 id="arena-standings-h" data-i18n="arena.standings"></h2>
    <p class="ahow" data-i18n="arena.scoring"></p>
    <div class="atable">
    <table class="astand" data-testid="arena-standings">
      <thead><tr><th scope="col" data-i18n="arena.rank"></th><th scope="col" data-i18n="arena.player"></th><th scope="col" data-i18n="arena.score"></th><th scope="col" data-i18n="arena.races"></th><th scope="col" data-i18n="arena.wins"></th></tr></thead>
      <tbody></tbody>
    </table>
    </div>
    <p class="lempty" data-testid="arena-nobody" data-i18n="arena.nobody" hidden></p>
  </section>
  <section class="lcard" data-testid="arena-races" aria-labelledby="arena-races-h" hidden>
    <h2 id="arena-races-h" data-i18n="arena.raceList"></h2>
    <ul class="llist araces"></ul>
  </section>
</div>`;
    const q = (tid) => $(`[data-testid=${tid}]`, root);
    q('arena-join').onclick = () => this.join('join');
    q('arena-resume').onclick = () => this.join('join');
    q('arena-pause').onclick = () => this.join('leave');
    q('arena-to-race').onclick = () => { const r = this.link.view?.you?.race; if (r) this.ui.openArenaRace(r); };
    q('arena-share').onclick = () => this.share();
    history.replaceState(null, '', `/?arena=${enc(id)}`);
    ui.translate();
    document.body.dataset.status = 'arena';
    this.scope.add(this.link.listen(this.scope.live((m) => this.message(m))));
    this.scope.every(() => this.tick(), 500);
    if (this.link.scored) this.result(this.link.scored);
    if (this.link.view) this.render();
    this.link.refresh().then(() => { document.body.dataset.ready = '1'; }, this.scope.live((e) => {
      if (this.link.view) return;
      this.ui.toast(e.code === 'not_found' ? t('arena.notFound') : errText(e));
      this.ui.toLobby();
    }));
  }

  /** dispose takes the screen off the page (the link stays app.js's). */
  dispose() { this.scope.dispose(); }

  /** redraw writes the screen again after a change of language. */
  redraw() {
    this.render();
    if (this.link.scored) this.result(this.link.scored);
  }

  message(m) {
    if (m.type === 'arena' || m.type === 'view' || m.type === 'paused') this.render();
    if (m.type === 'scored') { this.result(m); this.render(); }
  }

  /** join sends join (also: resume) or leave (pause) and shows the answer. */
  async join(what) {
    const btns = this.root.querySelectorAll('.amine button');
    btns.forEach((b) => { b.disabled = true; });
    try {
      const v = await api('POST', `/api/v1/arenas/${enc(this.id)}/${what}`);
      if (what === 'join') this.link.idle = false;
      this.link.accept(v);
    } catch (e) {
      this.ui.toast(e.code === 'conflict' ? t('arena.overJoin') : errText(e));
      this.link.refresh().catch(() => {});
    } finally {
      btns.forEach((b) => { b.disabled = false; });
    }
    if (this.scope.disposed) return;
    const next = what === 'leave' ? 'arena-resume' : 'arena-pause';
    const b = $(`[data-testid=${next}]`, this.root);
    if (!b.hidden) b.focus();
  }

  async share() {
    const url = `${location.origin}/?arena=${enc(this.id)}`;
    if (navigator.share && matchMedia('(pointer: coarse)').matches) {
      try { await navigator.share({ title: t('arena.title'), url }); return; } catch { /* cancelled */ }
    }
    try { await navigator.clipboard.writeText(url); } catch { /* no clipboard: the toast still shows the link */ }
    this.ui.toast(t('arena.copied'));
  }

  /** result shows the points of the player's last race, and fetches its outcome. */
  async result(m) {
    const box = $('[data-testid=arena-scored]', this.root);
    box.hidden = false;
    $('[data-testid=arena-points]', this.root).textContent = A.pointsText(m.points ?? 0);
    const res = $('[data-testid=arena-result]', this.root);
    if (this.last?.race === m.race) { res.textContent = this.last.text; return; }
    res.textContent = '';
    let v;
    try { v = await api('GET', `/api/v1/games/${enc(m.race)}`); } catch { return; }
    if (this.scope.disposed) return;
    this.last = { race: m.race, text: this.outcomeText(v) };
    if (this.link.scored?.race === m.race) res.textContent = this.last.text;
  }

  /** outcomeText words a finished race for the player: "You won · Bob resigned." */
  outcomeText(v) {
    const me = M.mySeat(v, this.ui.me?.id);
    const o = M.outcome(v, me);
    if (!o) return '';
    const name = (s) => (s === me ? t('race.you') : v.seats?.[s - 1]?.player?.name || t('race.someone'));
    const w = v.result.winner;
    const head = o.who === 'me' ? t('race.won') : o.who === 'draw' ? t('race.draw') : t('race.winner', { name: name(w) });
    const why = t('race.reason.' + (o.reason === 'out' && w === me ? 'outMe' : o.reason), { name: w ? name(w) : '', loser: w ? name(3 - w) : '' });
    return `${head} · ${why}`;
  }

  /** tick moves the countdown on; a change of phase draws the screen again. */
  tick() {
    const v = this.link.view;
    if (!v) return;
    const p = A.phase(v, this.link.now());
    $('[data-testid=arena-clock]', this.root).textContent = A.clockText(p);
    if (p.status !== this.shownStatus) this.render();
  }

  render() {
    const v = this.link.view;
    if (!v) return;
    const root = this.root;
    const q = (tid) => $(`[data-testid=${tid}]`, root);
    const p = A.phase(v, this.link.now());
    this.shownStatus = p.status;
    root.dataset.status = p.status;
    q('arena-rules').textContent = A.rules(v);
    q('arena-clock').textContent = A.clockText(p);
    q('arena-count').textContent = `${t('arena.players', { n: v.players })} · ${t('arena.raceCount', { n: v.races })}`;

    // the player's place
    const you = v.you;
    const over = p.status === 'over';
    q('arena-join').hidden = !!you || over;
    q('arena-resume').hidden = !you || !you.paused || over;
    q('arena-pause').hidden = !you || you.paused || over;
    q('arena-to-race').hidden = !you?.race || (over && !(v.racesInPlay > 0));
    const idle = !!you?.paused && (you.idle || this.link.idle);
    const note = q('arena-paused');
    note.hidden = !you?.paused || over;
    note.textContent = idle ? t('arena.idle') : t('arena.paused');
    note.classList.toggle('warn', idle);
    let st;
    if (over) st = v.racesInPlay > 0 ? t('arena.finishing', { n: v.racesInPlay }) : you ? t('arena.overYou', { n: you.rank }) : t('arena.overNote');
    else if (!you) st = t('arena.joinNote');
    else if (you.race) st = t('arena.inRace');
    else if (you.paused) st = '';
    else if (p.status === 'waiting') st = t('arena.soon');
    else st = t('arena.pairing');
    q('arena-status').textContent = st;
    q('arena-status').hidden = !st;

    // the podium, once the last races counted
    const pod = A.podium(v);
    q('arena-podium').hidden = !pod.length;
    const ol = $('.apod', root);
    ol.dataset.n = pod.length;
    ol.replaceChildren(...pod.map((r, i) => {
      const li = document.createElement('li');
      li.className = 'p' + (i + 1);
      li.dataset.testid = 'podium-' + (i + 1);
      const place = document.createElement('span');
      place.className = 'pl';
      place.textContent = t('arena.place' + (i + 1));
      const nm = document.createElement('b');
      nm.textContent = r.player?.name || t('race.someone');
      const sc = document.createElement('span');
      sc.textContent = t('arena.points', { n: r.score });
      li.append(place, nm, sc);
      return li;
    }));

    this.standings(v);
    // the server's word on the end (its last standings), asked for once the clock passed it
    if (over && v.status !== 'over' && !(Date.now() - (this.asked || 0) < 5000)) {
      this.asked = Date.now();
      this.link.refresh().catch(() => {});
    }
    if (v.status === 'over' && !(v.racesInPlay > 0) && !this.races) this.loadRaces();
  }

  /** standings fills the table: the player's own row marked, a gap before a row that does not follow the one above. */
  standings(v) {
    const body = $('.astand tbody', this.root);
    const rows = A.rows(v.standings, this.ui.me?.id);
    $('[data-testid=arena-nobody]', this.root).hidden = rows.length > 0;
    const out = [];
    for (const { row, mine, gap } of rows) {
      if (gap) {
        const tr = document.createElement('tr');
        tr.className = 'agap';
        const td = document.createElement('td');
        td.colSpan = 5;
        td.textContent = '…';
        td.setAttribute('aria-label', t('arena.gap'));
        tr.append(td);
        out.push(tr);
      }
      const tr = document.createElement('tr');
      tr.dataset.player = row.player?.id || '';
      tr.dataset.testid = mine ? 'arena-me' : 'arena-row';
      tr.classList.toggle('mine', mine);
      tr.classList.toggle('paused', !!row.paused);
      const cell = (txt, tag = 'td') => { const c = document.createElement(tag); c.textContent = txt; return c; };
      const rank = cell(String(row.rank));
      const who = document.createElement('th');
      who.scope = 'row';
      const nm = document.createElement('span');
      nm.className = 'anm';
      nm.textContent = mine ? t('arena.youName', { name: row.player?.name || t('race.someone') }) : row.player?.name || t('race.someone');
      who.append(nm);
      if (row.fire) {
        const f = document.createElement('span');
        f.className = 'afire';
        f.dataset.testid = 'fire';
        f.setAttribute('role', 'img');
        f.setAttribute('aria-label', t('arena.fire'));
        f.title = t('arena.fire');
        f.innerHTML = FLAME;
        who.append(' ', f);
      }
      if (row.playing) who.append(' ', this.mark('aplay', 'playing', t('arena.playing')));
      if (row.paused) who.append(' ', this.mark('apause', 'paused', t('arena.pausedMark')));
      tr.append(rank, who, cell(String(row.score)), cell(String(row.races)), cell(String(row.wins)));
      out.push(tr);
    }
    body.replaceChildren(...out);
  }

  mark(cls, tid, txt) {
    const s = document.createElement('small');
    s.className = 'amark ' + cls;
    s.dataset.testid = tid;
    s.textContent = txt;
    return s;
  }

  /** loadRaces lists the arena's races, each linking to its replay. */
  async loadRaces() {
    this.races = [];
    let rs;
    try { rs = (await api('GET', `/api/v1/arenas/${enc(this.id)}/races`)).races || []; } catch { this.races = null; return; }
    if (this.scope.disposed) return;
    this.races = rs;
    const box = $('[data-testid=arena-races]', this.root);
    box.hidden = !rs.length;
    const ul = $('ul', box);
    ul.replaceChildren(...rs.slice().reverse().map((r) => {
      const li = document.createElement('li');
      li.dataset.race = r.id;
      const txt = document.createElement('span');
      const names = r.players.map((pl) => pl?.name || t('race.someone'));
      const b = document.createElement('b');
      b.textContent = `${names[0]} ${r.points[0]} – ${r.points[1]} ${names[1]}`;
      const sm = document.createElement('small');
      sm.textContent = r.status !== 'over' ? t('arena.inPlay') : r.winner ? t('race.winner', { name: names[r.winner - 1] }) : t('race.draw');
      txt.append(b, sm);
      li.append(txt);
      if (r.status === 'over') {
        const a = document.createElement('a');
        a.href = `/?replay=${enc(r.id)}`;
        a.className = 'pill';
        a.dataset.testid = 'arena-replay';
        a.textContent = t('arena.replay');
        a.setAttribute('aria-label', `${t('arena.replay')}: ${b.textContent}`);
        li.append(a);
      }
      return li;
    }));
  }
}
