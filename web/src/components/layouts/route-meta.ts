import { useMatches } from 'react-router';

/** What a route tells the shell: its name (for the page title) and which chrome it hides. */
export interface RouteMeta {
  /** The route name (the spec's, where it names the route: MemberLogin, FindCare...); the page title is 'Member - ' plus this. */
  name: string;
  /** Authentication routes (login, register, ...) hide the public header and the side bar. */
  auth?: boolean;
  /** Onboarding routes (plan confirmation, ...) hide them too. */
  onboarding?: boolean;
  /** /membership and the edit routes hide the side bar only. */
  hideSidebar?: boolean;
}

/** The metadata of the deepest matched route that has any. */
export function useRouteMeta(): RouteMeta {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]!.handle as RouteMeta | undefined;
    if (handle?.name) return handle;
  }
  return { name: 'Marketplace' };
}

/** The document title for a route name ('Member - ' plus the name, as the spec sets it). */
export function pageTitle(name: string): string {
  return `Member - ${name}`;
}
