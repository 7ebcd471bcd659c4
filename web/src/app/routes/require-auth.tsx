import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useAccountKind } from '@/lib/session';

/**
 * Protected routes need a token cookie. The spec sends others to /signup, which it never
 * defines as a route; they go to /login instead (a documented decision), which brings them
 * back here after signing in.
 *
 * Each protected route belongs to one kind of account: a DPC provider opening a member screen
 * (which would answer 403 member_only) goes to /dpc-providers/solutions, and a member opening a
 * provider screen goes to /home.
 */
export function RequireAuth({ children, kind = 'member' }: { children: ReactNode; kind?: 'member' | 'provider' }) {
  const account = useAccountKind();
  const location = useLocation();
  if (account === null) return <Navigate to={paths.login.path} replace state={{ from: `${location.pathname}${location.search}` }} />;
  if (account !== kind) return <Navigate to={account === 'provider' ? paths.providerSolutions.path : paths.home.path} replace />;
  return children;
}

/** A public page built for members and visitors (the marketplace search): a signed-in provider goes to their solutions. */
export function NotForProviders({ children }: { children: ReactNode }) {
  const account = useAccountKind();
  if (account === 'provider') return <Navigate to={paths.providerSolutions.path} replace />;
  return children;
}
