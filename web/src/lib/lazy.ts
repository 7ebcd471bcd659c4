import { lazy, useState, type ComponentType, type LazyExoticComponent } from 'react';

/** Lazy-loads a named export as a component, so a screen or dialog is its own small download. */
export function lazyNamed<M, K extends keyof M>(loader: () => Promise<M>, name: K): LazyExoticComponent<M[K] extends ComponentType<infer P> ? ComponentType<P> : never> {
  return lazy(() => loader().then((module) => ({ default: module[name] as never })));
}

/**
 * True from the first time `open` is true: a lazily loaded dialog is mounted then (its code
 * fetched on first use) and stays mounted, so it can close the way it opened.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
