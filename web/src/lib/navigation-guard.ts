import { createContext, use, useEffect, useRef, useState } from 'react';
import { parsePath, type To, type UNSAFE_createBrowserHistory } from 'react-router';

/** The app's history (browser or memory): what react-router's `unstable_HistoryRouter` drives. */
export type AppHistory = ReturnType<typeof UNSAFE_createBrowserHistory>;

/** Decides whether leaving `currentPathname` for `nextPathname` must wait for the user's answer. */
type ShouldBlock = (currentPathname: string, nextPathname: string) => boolean;

interface Guard {
  shouldBlock: ShouldBlock;
  /** Called with the held navigation; `retry` makes it, past the guard. */
  onBlocked: (retry: () => void) => void;
}

/** A history whose navigations (links, `navigate`, Back and Forward) one guard can hold. */
export interface GuardedHistory extends AppHistory {
  /** Installs the guard; the returned function removes it. */
  guard(guard: Guard): () => void;
}

const pathnameOf = (to: To, current: string) => (typeof to === 'string' ? parsePath(to).pathname : to.pathname) || current;

/**
 * Wraps a history so a guard can hold a navigation until the user answers (the declarative
 * router has no `useBlocker`; this is its behaviour for the one form that needs it). A held Back
 * or Forward is undone at once (the browser has already moved) and made again on `retry`.
 */
export function guardHistory(history: AppHistory): GuardedHistory {
  let guard: Guard | null = null;
  // The pop that undoes a held Back, and the pop that makes it again once the user agreed.
  let undoing = false;
  let popAgreed = false;

  const blocks = (nextPathname: string) => guard !== null && guard.shouldBlock(history.location.pathname, nextPathname);

  const guarded: GuardedHistory = {
    get action() {
      return history.action;
    },
    get location() {
      return history.location;
    },
    createHref: (to) => history.createHref(to),
    createURL: (to) => history.createURL(to),
    encodeLocation: (to) => history.encodeLocation(to),
    go: (delta) => history.go(delta),
    push(to, state) {
      if (blocks(pathnameOf(to, history.location.pathname))) guard!.onBlocked(() => history.push(to, state));
      else history.push(to, state);
    },
    replace(to, state) {
      if (blocks(pathnameOf(to, history.location.pathname))) guard!.onBlocked(() => history.replace(to, state));
      else history.replace(to, state);
    },
    listen(listener) {
      let previousPathname = history.location.pathname;
      return history.listen((update) => {
        if (update.action === 'POP') {
          if (undoing) {
            // The browser went back to where the app still is: nothing to tell the router.
            undoing = false;
            return;
          }
          const crossed = update.delta;
          if (crossed && !popAgreed && guard !== null && guard.shouldBlock(previousPathname, update.location.pathname)) {
            undoing = true;
            history.go(-crossed);
            guard.onBlocked(() => {
              popAgreed = true;
              history.go(crossed);
            });
            return;
          }
          popAgreed = false;
        }
        previousPathname = update.location.pathname;
        listener(update);
      });
    },
    guard(next) {
      guard = next;
      return () => {
        if (guard === next) guard = null;
      };
    },
  };
  return guarded;
}

/** The app's guarded history, given by the router the app renders (components/layouts/app-router.tsx). */
export const GuardedHistoryContext = createContext<GuardedHistory | null>(null);

/** A held navigation: `proceed` makes it, `reset` drops it. */
export interface HeldNavigation {
  state: 'blocked' | 'unblocked';
  proceed: () => void;
  reset: () => void;
}

/**
 * Holds the app's navigations for which `shouldBlock` is true (current and next pathname) until
 * `proceed` or `reset`, as react-router's data-router `useBlocker` did.
 */
export function useHeldNavigation(shouldBlock: ShouldBlock): HeldNavigation {
  const history = use(GuardedHistoryContext);
  if (history === null) throw new Error('useHeldNavigation needs the app router (AppRouter)');
  const latest = useRef(shouldBlock);
  useEffect(() => {
    latest.current = shouldBlock;
  });
  const [retry, setRetry] = useState<(() => void) | null>(null);

  useEffect(
    () =>
      history.guard({
        shouldBlock: (current, next) => latest.current(current, next),
        onBlocked: (held) => setRetry(() => held),
      }),
    [history],
  );

  return {
    state: retry === null ? 'unblocked' : 'blocked',
    proceed() {
      if (retry === null) return;
      setRetry(null);
      retry();
    },
    reset() {
      setRetry(null);
    },
  };
}
