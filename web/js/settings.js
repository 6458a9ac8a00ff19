// Player preferences, kept in localStorage; draw and scoring are those of
// the last deal, which Play on the first screen deals again.
const KEY = 'dsol.settings';
export const DEFAULTS = { lang: '', dblclick: true, fourColor: false, theme: 'auto', leftHanded: false, stillCheck: false, draw: 1, scoring: 'normal', winnable: true };

export function loadSettings() {
  try { return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || '{}') }; } catch { return { ...DEFAULTS }; }
}

export function saveSettings(s) {
  try { localStorage.setItem(KEY, JSON.stringify(s)); } catch { /* private mode */ }
}

/** applySettings reflects the visual settings on the document. */
export function applySettings(s) {
  const d = document.documentElement;
  d.dataset.theme = s.theme;
  d.classList.toggle('four', !!s.fourColor);
  d.classList.toggle('lefty', !!s.leftHanded);
}

export const reducedMotion = () => globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
