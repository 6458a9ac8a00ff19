// The race screen's markup: HUD, strip, table, waiting room and the result
// and resign dialogs (texts come from data-i18n keys), and the race styles.

/** INV prefixes the sessionStorage key of a race's invite (shown once, to its creator). */
export const INV = 'dsol.invite.';

const ICON = {
  back: '<svg viewBox="0 0 24 24"><path d="M15.4 5 9 11.5l6.4 6.5-1.5 1.5L6 11.5 13.9 3.5z"/></svg>',
  flag: '<svg viewBox="0 0 24 24"><path d="M5 3h2v18H5zm3 1h10l-2 4 2 4H8z"/></svg>',
  set: '<svg viewBox="0 0 24 24"><path d="M3 5h10v2H3zm14 0h4v2h-4zm-3-2h2v6h-2zM3 11h4v2H3zm8 0h10v2H11zM8 9h2v6H8zm-5 8h12v2H3zm16 0h2v2h-2zm-3-2h2v6h-2z"/></svg>',
};

// the race styles beside this module, so under the same (cached) prefix
const CSS = new URL('../../css/race.css', import.meta.url).href;

/** ready loads the race styles once, before the first race screen shows. */
export async function ready() {
  if ([...document.querySelectorAll('link[rel=stylesheet]')].some((l) => l.href === CSS)) return;
  const l = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: CSS });
  document.head.append(l);
  await new Promise((r) => { l.onload = l.onerror = r; setTimeout(r, 1500); });
}

export function skeleton() {
  const sec = document.createElement('section');
  sec.id = 'race';
  sec.className = 'race';
  sec.innerHTML = `
<div class="rgame">
  <header class="hud rhud">
    <button class="ib" data-testid="to-lobby" data-i18n-label="race.lobby">${ICON.back}</button>
    <div class="stat rme"><small class="nm"></small><b data-testid="count-me">0</b></div>
    <span class="vs" aria-hidden="true">:</span>
    <div class="stat rthem"><small class="nm"></small><b data-testid="count-them">0</b></div>
    <button class="ib" data-testid="resign" data-i18n-label="race.resign">${ICON.flag}</button>
    <button class="ib" data-testid="help" data-i18n-label="hud.help"><b>?</b></button>
    <button class="ib" data-testid="settings" data-i18n-label="hud.settings">${ICON.set}</button>
  </header>
  <div class="rstrip">
    <span class="turn" data-testid="turn"></span>
    <span class="mark" data-testid="chosen-mark" hidden><span class="mk"></span><span class="sr"></span></span>
    <span class="clock" data-testid="turn-clock" hidden></span>
    <button class="pill" data-testid="pass" data-i18n="race.pass" hidden></button>
    <span class="dc" data-testid="opp-offline" hidden></span>
    <button class="pill hot" data-testid="claim" data-i18n="race.claim" hidden></button>
    <button class="pill" data-testid="show-result" data-i18n="race.result" hidden></button>
    <span class="aclk" data-testid="race-arena-clock" hidden></span>
    <button class="pill" data-testid="arena-back" data-i18n="arena.standings" hidden></button>
  </div>
  <main class="rtable" data-testid="race-table" aria-busy="true">
    <div class="rplay"></div>
    <div class="late" data-testid="too-late" role="status" hidden></div>
    <div class="wait" data-testid="waiting" hidden>
      <h2 data-i18n="race.waiting"></h2>
      <p class="wrules"></p>
      <div class="wnotes"></div>
      <label class="winv"><span data-i18n="race.invite"></span>
        <span class="row"><input readonly data-testid="invite-link"><button type="button" class="pill" data-testid="invite-copy" data-i18n="race.copy"></button></span></label>
      <p class="wnote" data-i18n="race.waitNote"></p>
      <p class="wnote" data-testid="offer-left" hidden></p>
      <button type="button" class="pill hot" data-testid="wait-join" data-i18n="race.join" hidden></button>
      <button type="button" class="pill" data-testid="wait-lobby" data-i18n="race.lobby"></button>
    </div>
  </main>
  <p class="sr" aria-live="assertive"></p>
</div>
<dialog id="dlg-result" data-testid="result">
  <form method="dialog">
    <h2 data-testid="result-title"></h2>
    <p class="summary" data-testid="result-counts"></p>
    <p data-testid="result-reason"></p>
    <p class="rating" data-testid="result-rating" hidden></p>
    <p class="tie" data-testid="result-tie" hidden></p>
    <p class="series" data-testid="series" hidden></p>
    <p class="offer" data-testid="rematch-offer" hidden></p>
    <p class="offer" data-testid="rematch-left" hidden></p>
    <button class="primary" value="rematch" data-testid="rematch" data-i18n="race.rematch"></button>
    <button value="decline" data-testid="rematch-decline" data-i18n="race.decline" hidden></button>
    <button value="lobby" data-testid="result-lobby" data-i18n="race.lobby"></button>
    <button value="close" class="quiet" data-i18n="game.close"></button>
    <button type="button" class="quiet" data-testid="result-block" data-i18n="block.action" hidden></button>
  </form>
</dialog>
<dialog id="dlg-resign" data-testid="resign-dialog">
  <form method="dialog">
    <h2 data-i18n="race.resignQ"></h2>
    <p data-i18n="race.resignNote"></p>
    <button class="primary" value="yes" data-testid="resign-yes" data-i18n="race.resign"></button>
    <button value="no" class="quiet" data-testid="resign-no" data-i18n="newGame.cancel"></button>
  </form>
</dialog>`;
  return sec;
}
