// The buttons around the solo table: Home, New game, Undo, Hint, Finish,
// Help, Settings, and copying (or, on a touch screen, sharing) the game's
// code; the stuck notice's ways out; the N key for a new game. Undo, Hint
// and Finish go to the mode on screen, if it has them.
import { t } from './i18n.js';
import { toast } from './notice.js';

const $ = (s, r = document) => r.querySelector(s);

/**
 * hudButtons wires the HUD and the stuck notice. ui: {mode() and kind()
 * (the mode on screen and which screen it is), showNew(), home(), help(),
 * prefs()}.
 */
export function hudButtons(ui) {
  $('#b-set').onclick = ui.prefs;
  $('#b-new').onclick = () => ui.showNew();
  $('#b-home').onclick = () => ui.home();
  $('#b-undo').onclick = () => ui.mode()?.undo?.();
  $('#b-hint').onclick = () => ui.mode()?.hint?.();
  $('#b-finish').onclick = () => ui.mode()?.finish?.();
  $('#b-help').onclick = ui.help;
  $('#b-copy').onclick = async () => {
    const code = ui.kind() === 'solo' && ui.mode()?.view?.code;
    if (!code) return;
    const url = `${location.origin}/?code=${code}`;
    if (navigator.share && matchMedia('(pointer: coarse)').matches) {
      try { await navigator.share({ title: t('title'), text: code, url }); return; } catch { /* cancelled */ }
    }
    try { await navigator.clipboard.writeText(code); } catch {
      const ta = Object.assign(document.createElement('textarea'), { value: code });
      document.body.append(ta); ta.select(); document.execCommand('copy'); ta.remove();
    }
    toast(t('hud.copied'));
  };
  // the stuck notice's ways out: take back a step, ask for a hint, or deal again
  $('[data-testid=stuck-undo]').onclick = () => ui.mode()?.undo?.();
  $('[data-testid=stuck-hint]').onclick = () => ui.mode()?.hint?.();
  $('[data-testid=stuck-new]').onclick = () => ui.showNew();
  // Enter or Space on its buttons is theirs, not the table's (a draw)
  $('#stuck').addEventListener('keydown', (e) => { if (e.target.closest('button')) e.stopPropagation(); });
  document.addEventListener('keydown', (e) => {
    if (e.key.toLowerCase() === 'n' && ui.kind() === 'solo' && !e.ctrlKey && !e.metaKey && !e.altKey && !document.querySelector('dialog[open]') && !e.target.closest?.('input, select')) ui.showNew();
  });
}
