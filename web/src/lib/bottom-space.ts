import { useLayoutEffect, type RefObject } from 'react';

/**
 * Bars fixed to the bottom of the viewport (the clinic footer, the mobile map toggle) publish
 * their height as `--bottom-bar-height` on the root element. The app shell pads its end by that
 * much, so the last section of every page can scroll into view above the bar, and the root's
 * scroll-padding keeps keyboard focus clear of it.
 *
 * The height comes from a ResizeObserver, after the browser's own layout of the frame and before
 * its paint: reading it in the layout effect instead forced a layout of the whole page in the
 * middle of React's commit (0.6 s of a throttled phone's first screen), and the page is laid out
 * again anyway once the height is published.
 */
const heights = new Map<object, number>();
let published = '';

function publish(): void {
  const tallest = Math.max(0, ...heights.values());
  const value = tallest > 0 ? `${Math.ceil(tallest)}px` : '';
  // An unchanged height writes nothing: a write restyles the whole page.
  if (value === published) return;
  published = value;
  const root = document.documentElement.style;
  if (value) root.setProperty('--bottom-bar-height', value);
  else root.removeProperty('--bottom-bar-height');
}

/** Reserves the element's height (it changes when the bar wraps) at the bottom of the page. */
export function useReservedBottomSpace(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver !== 'function') return;
    const key = {};
    const observer = new ResizeObserver((entries) => {
      const box = entries.at(-1)?.borderBoxSize?.[0];
      if (!box) return;
      heights.set(key, box.blockSize);
      publish();
    });
    observer.observe(element, { box: 'border-box' });
    return () => {
      observer.disconnect();
      heights.delete(key);
      publish();
    };
  }, [ref]);
}
