// Fair deals on screen: what a joiner is told before joining (a deal the
// host chose, mirrored decks), the deal fingerprint (commitment) shown during
// play, and "Check this race" once the race is over, which recomputes
// SHA-256(code:salt) in the browser (commit.js).
import { t } from '../i18n.js';
import { el } from '../cards.js';
import { checkDeal, shortHex, normHex, notices, codeURL, subtleCrypto } from './commit.js';

const SEEN = 'dsol.commit.';
const seenHere = new Map(); // when sessionStorage is not available

/**
 * noticeEls builds one note per thing a joiner should know about race r
 * (a lobby entry or a race view). For the creator the chosen-deal note is
 * left out: they chose it.
 */
export function noticeEls(r, creator = false, tag = 'p') {
  return notices(r).filter((k) => !(creator && k === 'chosen')).map((k) => {
    const p = el(tag, 'fnote ' + k, t('fair.' + k));
    p.dataset.testid = k + '-note';
    return p;
  });
}

/**
 * rememberCommitment keeps, per race, the first commitment this browser saw
 * before the race ended, and returns it ('' if the race was first seen over).
 */
export function rememberCommitment(v) {
  if (!v?.id) return '';
  let s = seenHere.get(v.id) || '';
  if (!s) try { s = sessionStorage.getItem(SEEN + v.id) || ''; } catch { /* private mode */ }
  const c = normHex(v.commitment);
  if (!s && c && v.status !== 'over') {
    s = c;
    try { sessionStorage.setItem(SEEN + v.id, c); } catch { /* private mode */ }
  }
  if (s) seenHere.set(v.id, s);
  return s;
}

/**
 * Fingerprint is the strip's "deal fingerprint" control: short form, full
 * value on opening. Its listeners (a press elsewhere or Esc closes it) belong
 * to scope, the race's.
 */
export class Fingerprint {
  constructor(scope) {
    const d = this.el = el('details', 'fair');
    d.dataset.testid = 'fair';
    const s = this.sum = el('summary');
    s.append(el('span', 'fl'), ' ', el('code', 'fs'));
    const pop = el('div', 'fpop');
    pop.setAttribute('role', 'note');
    pop.append(el('p', 'fexp'), el('code', 'ffull'));
    pop.lastChild.dataset.testid = 'commitment';
    d.append(s, pop);
    scope.on(document, 'pointerdown', (e) => { if (d.open && !d.contains(e.target)) d.open = false; });
    scope.on(document, 'keydown', (e) => { if (e.key === 'Escape' && d.open) { d.open = false; s.focus(); } });
  }

  show(v) {
    const c = normHex(v?.commitment);
    this.el.hidden = !c;
    if (!c) return;
    this.el.querySelector('.fl').textContent = t('fair.print');
    this.el.querySelector('.fs').textContent = shortHex(c);
    this.el.querySelector('.fexp').textContent = t('fair.printNote');
    this.el.querySelector('.ffull').textContent = c;
    this.sum.title = `${t('fair.print')}: ${c}`;
    this.sum.setAttribute('aria-label', `${t('fair.print')} ${shortHex(c)}`);
  }
}

/** CheckPanel is "Check this race": the values revealed at the end and whether they match. */
export class CheckPanel {
  constructor() {
    const p = this.el = el('section', 'fcheck');
    p.dataset.testid = 'fair-check';
    p.dataset.check = 'none';
    p.hidden = true;
    const h = el('h3');
    h.id = 'fcheck-h';
    p.setAttribute('aria-labelledby', h.id);
    this.status = el('p', 'fst');
    this.status.dataset.testid = 'check-status';
    this.status.setAttribute('role', 'status');
    this.list = el('dl');
    this.how = el('p', 'fhow');
    p.append(h, this.status, this.list, this.how);
    this.key = '';
  }

  /** show checks the over view v against seen (rememberCommitment) and fills the panel. */
  async show(v, seen, subtle = subtleCrypto()) {
    const p = this.el;
    p.hidden = v?.status !== 'over';
    if (p.hidden) { this.key = ''; return; }
    const key = [v.id, v.code, v.salt, v.commitment, seen, t('fair.check')].join('|');
    if (key === this.key) return;
    this.key = key;
    p.querySelector('h3').textContent = t('fair.check');
    p.dataset.check = 'pending';
    this.status.textContent = t('fair.checking');
    const r = await checkDeal({ code: v.code, salt: v.salt, commitment: v.commitment, seen }, subtle);
    if (key !== this.key) return; // a newer view meanwhile
    p.dataset.check = r.state;
    const msg = r.state === 'ok' && !r.seen ? 'okLate' : r.state;
    this.status.replaceChildren(el('b', 'fmark', { ok: '✓', bad: '✗' }[r.state] || 'ℹ'), ' ', t('fair.' + msg));
    this.status.firstChild.setAttribute('aria-hidden', 'true');
    const rows = [];
    if (v.code) {
      const a = el('a', null, v.code);
      a.href = codeURL(v.code);
      a.target = '_blank';
      a.rel = 'noopener';
      a.title = t('fair.codeTitle');
      a.dataset.testid = 'check-code';
      rows.push(['code', a]);
    }
    if (v.salt) rows.push(['salt', v.salt, 'check-salt']);
    if (r.seen) rows.push(['seen', r.seen, 'check-seen']);
    if (r.final && r.final !== r.seen) rows.push(['final', r.final, 'check-final']);
    if (r.computed) rows.push(['computed', r.computed, 'check-computed']);
    this.list.replaceChildren();
    for (const [k, val, id] of rows) {
      const dd = el('dd');
      if (typeof val === 'string') {
        const c = el('code', null, val);
        c.dataset.testid = id;
        dd.append(c);
      } else dd.append(val);
      this.list.append(el('dt', null, t('fair.' + k)), dd);
    }
    this.how.hidden = !v.code;
    this.how.textContent = t('fair.how');
  }
}
