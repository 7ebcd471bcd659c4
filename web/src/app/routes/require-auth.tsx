import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useSignedIn } from '@/lib/session';

/**
 * Protected routes need a token cookie. The spec sends others to /signup, which it never
 * defines as a route; they go to /login instead (a documented decision), which brings them
 * back here after signing in.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const signedIn = useSignedIn();
  const location = useLocation();
  if (!signedIn) return <Navigate to={paths.login.path} replace state={{ from: `${location.pathname}${location.search}` }} />;
  return children;
}
