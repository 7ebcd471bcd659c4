import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

/** A page's own skip link, offered after "Skip to content": the element it moves focus to and its text. */
export interface SkipLink {
  targetId: string;
  label: string;
}

const SkipLinksContext = createContext<(link: SkipLink | null) => void>(() => {});

/** Holds the current page's skip link for the shell to render among its own, first in the tab order. */
export function useSkipLinkSlot(): [SkipLink | null, (link: SkipLink | null) => void] {
  return useState<SkipLink | null>(null);
}

export function SkipLinksProvider({ set, children }: { set: (link: SkipLink | null) => void; children: ReactNode }) {
  return <SkipLinksContext.Provider value={set}>{children}</SkipLinksContext.Provider>;
}

/** Offers "Skip to map" (or another target of the page) while `enabled`, e.g. while the map shows. */
export function usePageSkipLink(targetId: string, label: string, enabled: boolean): void {
  const set = useContext(SkipLinksContext);
  useEffect(() => {
    if (!enabled) return;
    set({ targetId, label });
    return () => set(null);
  }, [set, targetId, label, enabled]);
}

/**
 * Moves keyboard focus to the link's target without a hash in the URL (the router would take it
 * for a navigation): the element is focused where it is, or its first focusable descendant.
 */
export function skipTo(targetId: string): void {
  const target = document.getElementById(targetId);
  if (!target) return;
  const focusable = target.matches('[tabindex], a[href], button, input') ? target : target.querySelector<HTMLElement>('[tabindex], a[href], button, input');
  (focusable ?? target).focus();
  (focusable ?? target).scrollIntoView({ block: 'nearest' });
}
