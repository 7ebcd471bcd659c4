import { createContext, use, useMemo } from 'react';
import { matchRoutes, useLocation, type RouteObject } from 'react-router';

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

/** The app's route table (each route's `handle` its RouteMeta), given by the app's router. */
export const RouteTableContext = createContext<RouteObject[]>([]);

/** The metadata of the deepest matched route that has any. */
export function useRouteMeta(): RouteMeta {
  const routes = use(RouteTableContext);
  const { pathname } = useLocation();
  const matches = useMemo(() => matchRoutes(routes, pathname) ?? [], [routes, pathname]);
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]!.route.handle as RouteMeta | undefined;
    if (handle?.name) return handle;
  }
  return { name: 'Marketplace' };
}

/** The document title for a route name ('Member - ' plus the name, as the spec sets it). */
export function pageTitle(name: string): string {
  return `Member - ${name}`;
}
