// Blocking: a player blocked is never matched with you again, and neither
// of you sees the other's races. Block from the result screen of a race or
// a lobby row (after a confirmation); the settings dialog lists the players
// blocked, each with Unblock.
import { api } from './api.js';
import { t } from './i18n.js';
import { ask } from './account.js';

const $ = (s, r = document) => r.querySelector(s);

/** blockPlayer asks before blocking player {id, name}; it resolves true once blocked. */
export async function blockPlayer(p) {
  if (!(await ask(t('block.q', { name: p.name }), t('block.note'), t('block.yes')))) return false;
  await api('POST', `/api/v1/players/${encodeURIComponent(p.id)}/block`);
  return true;
}

/**
 * blocksSection wires the blocked players' part of #dlg-set and returns
 * the function that loads the list (call it when the dialog opens). ui:
 * {toast(message)}.
 */
export function blocksSection(ui) {
  const sec = $('#dlg-set [data-testid=blocks]');
  const list = $('[data-testid=blocked-list]', sec), none = $('[data-testid=blocked-none]', sec);
  const show = (blocked) => {
    list.replaceChildren(...blocked.map((p) => {
      const li = document.createElement('li');
      const name = document.createElement('span');
      name.textContent = p.name;
      name.title = p.name; // in full where the row shortens it
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.testid = 'unblock';
      b.textContent = t('block.unblock');
      b.setAttribute('aria-label', t('block.unblockName', { name: p.name }));
      b.onclick = async () => {
        b.disabled = true;
        try {
          await api('DELETE', `/api/v1/players/${encodeURIComponent(p.id)}/block`);
        } catch {
          b.disabled = false;
          return ui.toast(t('err.generic'));
        }
        ui.toast(t('block.unblocked', { name: p.name }));
        load();
      };
      li.append(name, b);
      return li;
    }));
    list.hidden = blocked.length === 0;
    none.hidden = blocked.length > 0;
  };
  const load = async () => {
    try { show((await api('GET', '/api/v1/me/blocks')).blocked); } catch { list.hidden = true; none.hidden = true; }
  };
  return load;
}
