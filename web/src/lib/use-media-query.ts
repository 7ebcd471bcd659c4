import { useSyncExternalStore } from 'react';

/** Mobile means a width under 600 px. */
export const MOBILE_QUERY = '(max-width: 599.98px)';
/** Below 700 px a map click opens the details screen instead of an info window. */
export const NARROW_MAP_QUERY = '(max-width: 699.98px)';
/** The side bar shows from this width up. */
export const WIDE_QUERY = '(min-width: 900px)';

function matches(query: string): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
}

/** Follows a CSS media query. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => matches(query),
    () => false,
  );
}

export function useIsMobile(): boolean {
  return useMediaQuery(MOBILE_QUERY);
}
