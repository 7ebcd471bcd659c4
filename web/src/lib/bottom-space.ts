import { useLayoutEffect, type RefObject } from 'react';

/**
 * Bars fixed to the bottom of the viewport (the clinic footer, the mobile map toggle) publish
 * their height as `--bottom-bar-height` on the root element. The app shell pads its end by that
 * much, so the last section of every page can scroll into view above the bar, and the root's
 * scroll-padding keeps keyboard focus clear of it.
 */
const heights = new Map<object, number>();

function publish(): void {
  const tallest = Math.max(0, ...heights.values());
  const root = document.documentElement.style;
  if (tallest > 0) root.setProperty('--bottom-bar-height', `${Math.ceil(tallest)}px`);
  else root.removeProperty('--bottom-bar-height');
}

/** Reserves the element's height (it changes when the bar wraps) at the bottom of the page. */
export function useReservedBottomSpace(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const key = {};
    const measure = () => {
      heights.set(key, element.getBoundingClientRect().height);
      publish();
    };
    measure();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(element, { box: 'border-box' });
    return () => {
      observer?.disconnect();
      heights.delete(key);
      publish();
    };
  }, [ref]);
}
