// The win cascade: cards leap off the foundations and bounce away.
// Never blocks input; skipped entirely with prefers-reduced-motion.
// celebrate returns a function that ends it at once (a mode going away).
import { cardEl } from './cards.js';
import { reducedMotion } from './settings.js';

export function celebrate(sources) {
  if (reducedMotion() || !document.body.animate) return null;
  const fx = document.createElement('div');
  fx.className = 'fx';
  fx.setAttribute('aria-hidden', 'true');
  document.body.append(fx);
  const H = innerHeight, W = innerWidth;
  let longest = 0;
  sources.slice(0, 60).forEach(({ card, rect }, i) => {
    const el = cardEl(card);
    el.style.left = rect.left + 'px';
    el.style.top = rect.top + 'px';
    fx.append(el);
    const vx = (Math.random() < 0.5 ? -1 : 1) * (0.15 + Math.random() * 0.35) * W;
    const floor = H - rect.top - rect.height;
    const frames = [];
    for (let k = 0; k <= 20; k++) {
      const p = k / 20;
      // fall to the bottom edge, then one bounce
      const y = p < 0.5 ? floor * (2 * p) ** 2 : floor - floor * 0.4 * Math.sin((p - 0.5) * 2 * Math.PI);
      frames.push({ transform: `translate(${vx * p}px,${y}px) rotate(${p * 120 * Math.sign(vx)}deg)`, opacity: p > 0.9 ? (1 - p) * 10 : 1 });
    }
    const dur = 1600 + Math.random() * 900, delay = i * 70;
    longest = Math.max(longest, dur + delay);
    el.animate(frames, { duration: dur, delay, fill: 'both', easing: 'linear' });
  });
  const timer = setTimeout(() => fx.remove(), longest + 100);
  return () => { clearTimeout(timer); fx.remove(); };
}
