// What the page tells the player over any screen: a toast for a moment,
// an error worded for the player, and the banner while the connection to
// a game is being restored.
import { t } from './i18n.js';

const $ = (s, r = document) => r.querySelector(s);

let toastTimer = 0;

/** toast shows msg for a moment, long enough to read it; a newer one takes its place. */
export function toast(msg) {
  const el = $('#toast');
  el.textContent = msg;
  el.classList.add('on');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove('on'), Math.max(2600, 60 * String(msg).length));
}

/** errText words an error ({code}: an API error, a refusal) for the player: its code's message, else the generic one. */
export function errText(e) {
  const code = e?.code || 'generic';
  return t('err.' + code) === 'err.' + code ? t('err.generic') : t('err.' + code);
}

/** errMessage words an error for the player: a game code's wrong part, else its code (errText). */
export function errMessage(e) {
  if (e.field) return t('code.' + e.field);
  return errText(e);
}

/** showError toasts error e, worded by errMessage. */
export function showError(e) {
  toast(errMessage(e));
}

/** banner shows (down) or hides the notice that the connection is being restored. */
export function banner(down) {
  const b = $('#banner');
  b.hidden = !down;
  b.textContent = t('net.reconnecting');
  document.body.dataset.online = down ? '0' : '1';
}
