// The notice that the server changed the player's name: a name stored
// before the naming rules came to refuse it is replaced by a generated one
// (GET /api/v1/me carries `renamed` until the player has seen it). The
// dialog tells the player, once: closing it, however, tells the server it
// was seen (DELETE /api/v1/me/renamed).
import { api } from './api.js';
import { t } from './i18n.js';

const $ = (s, r = document) => r.querySelector(s);

/** NAMED is the storage key set once the player chose or skipped a name (the lobby asks until then). */
export const NAMED = 'dsol.named';

/**
 * renamedNotice shows #dlg-renamed when me carries a renaming, and returns
 * whether it did. The lobby asks for a name again; "Choose a name" calls
 * chooseName() once the dialog is closed.
 */
export function renamedNotice(me, chooseName) {
  if (!me?.renamed) return false;
  const d = $('#dlg-renamed');
  $('[data-testid=renamed-text]', d).textContent = t('account.renamed', { from: me.renamed.from, name: me.name });
  try { localStorage.removeItem(NAMED); } catch { /* private mode: the lobby asks anyway */ }
  d.addEventListener('close', () => {
    api('DELETE', '/api/v1/me/renamed').catch(() => { /* shown again at the next visit */ });
    if (d.returnValue === 'name') chooseName();
  }, { once: true });
  d.returnValue = '';
  d.showModal();
  return true;
}
