// Your account, in the settings dialog: a transfer code (with its QR code
// and countdown) for using the same player on another device, a field for
// a code from another device, signing out everywhere, downloading and
// deleting your data. The server keeps only a hash of the code.
import { api } from './api.js';
import { t, formatTime } from './i18n.js';

const $ = (s, r = document) => r.querySelector(s);

/** ask shows the confirmation dialog and resolves true for yes. */
export function ask(title, note, yes) {
  const dlg = $('#dlg-confirm');
  $('[data-testid=confirm-title]', dlg).textContent = title;
  $('[data-testid=confirm-note]', dlg).textContent = note;
  $('[data-testid=confirm-yes]', dlg).textContent = yes;
  return new Promise((resolve) => {
    dlg.addEventListener('close', () => resolve(dlg.returnValue === 'yes'), { once: true });
    dlg.returnValue = '';
    dlg.showModal();
  });
}

/** linkError words why a transfer code was refused. */
export function linkError(e) {
  const k = { bad_request: 'account.bad', not_found: 'account.notFound', expired: 'account.expiredCode', rate_limited: 'account.slow' }[e.code];
  return t(k || 'err.generic');
}

/** redeem asks before signing this device in with code; it resolves to the player, or null when declined. */
export async function redeem(code) {
  if (!(await ask(t('account.linkQ'), t('account.linkNote'), t('account.use')))) return null;
  return api('POST', '/api/v1/link', { code });
}

/**
 * accountSection wires the account part of #dlg-set. ui: {signedIn(player,
 * message)}, called once this device is another player (a code entered,
 * signed out everywhere, data deleted; null: a fresh one is needed). The
 * code on show goes when the dialog closes.
 */
export function accountSection(ui) {
  const sec = $('#dlg-set [data-testid=account]');
  const q = (id) => $(`[data-testid=${id}]`, sec);
  const box = q('link-box'), err = q('link-error'), input = q('link-input');
  let timer = 0;
  const stop = () => { clearInterval(timer); timer = 0; };
  const fail = (msg) => { err.textContent = msg; err.hidden = !msg; };

  q('link-show').onclick = async () => {
    fail('');
    let l;
    try { l = await api('POST', '/api/v1/me/link'); } catch (e) { return fail(linkError(e)); }
    stop();
    q('link-code').textContent = l.code;
    const qr = q('link-qr');
    qr.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(l.qr);
    qr.alt = t('account.qr');
    qr.hidden = false;
    const until = Date.now() + l.expiresIn * 1000;
    const tick = () => {
      const left = Math.round((until - Date.now()) / 1000);
      q('link-expiry').textContent = left > 0 ? t('account.expiresIn', { time: formatTime(left) }) : t('account.expired');
      if (left <= 0) { stop(); qr.hidden = true; q('link-code').classList.add('gone'); }
    };
    q('link-code').classList.remove('gone');
    box.hidden = false;
    tick();
    timer = setInterval(tick, 1000);
  };

  q('link-use').onclick = async () => {
    fail('');
    const code = input.value.trim();
    if (!code) return fail(t('account.bad'));
    let p;
    try { p = await redeem(code); } catch (e) { return fail(linkError(e)); }
    if (p) { input.value = ''; ui.signedIn(p, t('account.linked', { name: p.name })); }
  };
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') { e.preventDefault(); q('link-use').click(); }
  });
  // typing a code is not a change of the settings
  input.addEventListener('change', (e) => e.stopPropagation());

  // the server answers with Content-Disposition: attachment, so the page stays
  q('export').onclick = () => { location.assign('/api/v1/me/export'); };

  const drastic = async (title, note, yes, method, path, done) => {
    if (!(await ask(t(title), t(note), t(yes)))) return;
    try { await api(method, path); } catch (e) { return fail(linkError(e)); }
    ui.signedIn(null, t(done));
  };
  q('logout-all').onclick = () => drastic('account.logoutAllQ', 'account.logoutAllNote', 'account.logoutAll', 'POST', '/api/v1/me/logout-all', 'account.signedOut');
  q('delete-me').onclick = () => drastic('account.deleteQ', 'account.deleteNote', 'account.deleteYes', 'DELETE', '/api/v1/me', 'account.deleted');

  $('#dlg-set').addEventListener('close', () => {
    stop();
    box.hidden = true;
    fail('');
  });
}
