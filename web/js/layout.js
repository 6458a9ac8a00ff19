// Layout maths: card size from the viewport and column compression. Pure.
export const RATIO = 1.4; // card height / width: the standard card
export const TALL = 1.8; // a portrait table's cards may be up to this much taller than wide
export const MAX_CW = 132;
export const MIN_CW = 28;
export const MIN_RANK = 16; // px: the corner index stays readable on a phone
const DOWN = 0.12; // the natural step between face-down cards, in card heights

/**
 * rankPx is the size of a card's corner index: a share of its width, at
 * least MIN_RANK while the card has room for it (a "10" in half its width
 * leaves room for the suit beside it: nine columns on a phone 320px wide).
 */
export function rankPx(cw) {
  return Math.round(Math.max(cw * 0.36, Math.min(MIN_RANK, cw * 0.49)));
}

/** indexPx is the height of a card's corner index of rank px (its line box: line-height 1.05 in app.css), and a pixel of edge. */
export function indexPx(rank) {
  return Math.ceil(rank * 1.05) + 1;
}

/**
 * computeLayout sizes the cards for a table area of width × height.
 * Portrait: a top row (stock, waste, foundations as a 2×2 block of suit pairs)
 * over nine columns. Landscape: stock and waste | nine columns | 4 suit rows.
 * Portrait cards grow taller than the standard card where the height
 * allows. columns ({down, up} of each column, see columnCounts) let the
 * steps between cards grow, so that columns overlap less where there is
 * height to spare (see growSteps).
 */
export function computeLayout({ width, height, cols = 9, columns = null }) {
  const portrait = width < height * 1.05;
  const pad = Math.max(4, Math.round(Math.min(width, height) * 0.012));
  // gap as a share of the card width: narrow tables (nine columns on a
  // phone) give their gaps to the cards
  const g = portrait && width < 600 ? 0.05 : 0.08;
  let cw;
  if (portrait) {
    const byW = (width - 2 * pad) / (cols + (cols - 1) * g);
    // top row two cards high, then a column of a card plus twelve steps
    const byH = (height - 2 * pad) / (RATIO * (2 + 1 + 12 * 0.2) + 3 * g);
    cw = Math.min(byW, byH);
  } else {
    const byW = (width - 2 * pad) / (cols + 3 + (cols - 1) * g + g + 0.9);
    const byH = (height - 2 * pad) / (4 * RATIO + 3 * g);
    cw = Math.min(byW, byH);
  }
  cw = Math.max(MIN_CW, Math.min(MAX_CW, Math.floor(cw)));
  // the gaps are whole pixels, at least two: on the narrowest phones they
  // take more than their share, and the cards give it back
  while (portrait && cw > MIN_CW && cols * cw + (cols - 1) * Math.max(2, Math.round(cw * g)) > width - 2 * pad) cw--;
  const gap = Math.max(2, Math.round(cw * g));
  const rank = rankPx(cw);
  const badge = badgePx(cw);
  const rowGap = Math.round(gap * 2.5);
  let ch = Math.round(cw * RATIO);
  if (portrait) {
    // nine columns across a phone leave most of its height unused: the
    // cards grow taller, as far as the top row and a long column (eight
    // face down, thirteen face up showing their index) still fit
    const fit = Math.floor((height - 2 * pad - gap - rowGap - badge - 12 * (rank + 6)) / (2 + 1 + 8 * DOWN));
    ch = Math.max(ch, Math.min(Math.round(cw * TALL), fit));
  }
  // the height of the columns: the table less the top row in portrait
  const colH = height - 2 * pad - (portrait ? 2 * ch + gap + rowGap : 0);
  const L = {
    portrait, cw, ch, gap, pad, rank, colH, rowGap,
    downStep: Math.round(ch * DOWN),
    // a face-up card shows at least its index and suit
    upStep: Math.max(rank + 6, Math.round(ch * (portrait ? 0.4 : 0.28))),
    // and never less than its index, however long its column
    upMin: indexPx(rank),
    // a fanned waste card shows its whole index ("10")
    fanStep: Math.round(portrait ? Math.max(cw * 0.46, rank * 1.25 + 2) : ch * 0.26),
  };
  if (columns) Object.assign(L, growSteps(L, columns, colH, { portrait, badge }));
  return L;
}

/** badgePx is the step after a column's last face-down card, which shows the count of them. */
export function badgePx(cw) {
  return Math.round(Math.max(14, cw * 0.3));
}

/**
 * growSteps returns the steps between cards for a board whose columns
 * (each {down, up}: how many cards face down and face up) are colH high and
 * whose natural steps are S's: as large as every column still fits, up to
 * half a card between face-up cards (a third in landscape), then between
 * face-down ones up to a fifth of a card in landscape and over half of one
 * in portrait, where a phone's columns have height to spare, within three
 * quarters of the height; never less
 * than the natural steps (columnSteps shrinks the columns that need it).
 * badge is the step after a column's last face-down card.
 */
export function growSteps(S, columns, colH, { portrait, badge }) {
  let up = Math.round(S.ch * (portrait ? 0.5 : 0.34));
  let down = Math.round(S.ch * (portrait ? 0.55 : 0.2));
  const room = (c, h) => h - S.ch - (c.down ? badge : 0);
  // the face-up cards first: they are the ones to read
  for (const c of columns) if (c.up > 1) up = Math.min(up, Math.floor((room(c, colH) - c.down * S.downStep) / (c.up - 1)));
  up = Math.max(S.upStep, up);
  // the face-down ones leave a quarter of the height to the cards to come,
  // so that the next few moves do not shift every column
  const h = Math.floor(colH * 0.75);
  for (const c of columns) if (c.down) down = Math.min(down, Math.floor((room(c, h) - Math.max(0, c.up - 1) * up) / c.down));
  return { downStep: Math.max(S.downStep, down), upStep: up };
}

/** columnCounts returns {down, up} (how many cards face down and face up) of each of columns. */
export function columnCounts(columns) {
  return columns.map((c) => ({ down: c.down, up: c.up.length }));
}

/**
 * columnSteps returns the offsets between face-down cards and between face-up
 * cards so that the whole column fits in avail pixels: first the face-down
 * steps shrink, then the face-up ones; every card keeps a strip to grab.
 * The face-up steps shrink down to L.upMin where the layout has one (the
 * solo table: every index stays readable, and a column that still does not
 * fit is taller than avail, for its table to scroll).
 */
export function columnSteps(down, up, L, avail) {
  let ds = L.downStep, us = L.upStep;
  const need = (d, u) => down * d + Math.max(0, up - 1) * u + L.ch - (up === 0 && down > 0 ? d : 0);
  if (need(ds, us) <= avail) return { down: ds, up: us };
  const dMin = Math.max(2, Math.round(L.ch * 0.05));
  ds = dMin;
  if (need(ds, us) <= avail) {
    // give the face-down cards back what room there is
    const d = down > 0 ? Math.floor((avail - need(0, us)) / down) : ds;
    return { down: Math.max(dMin, Math.min(L.downStep, d)), up: us };
  }
  const uMin = L.upMin ?? Math.max(4, Math.round(L.ch * 0.1));
  if (up > 1) us = Math.max(uMin, Math.floor((avail - need(ds, 0)) / (up - 1)));
  if (need(ds, us) > avail && down > 0) ds = Math.max(1, Math.floor((avail - need(0, us)) / down));
  return { down: ds, up: us };
}

/** wasteFan lists which waste cards to draw and at what fan position. */
export function wasteFan(len, draw) {
  const shown = Math.min(len, draw === 3 ? 3 : 1);
  const out = [];
  if (len > shown) out.push({ index: len - shown - 1, pos: 0 });
  for (let i = 0; i < shown; i++) out.push({ index: len - shown + i, pos: i });
  return out;
}
