import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useSignedIn } from '@/lib/session';

/**
 * Protected routes need a token cookie. The spec sends others to /signup, whose existence it
 * leaves open; they go to /login until the accounts feature decides.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const signedIn = useSignedIn();
  const location = useLocation();
  if (!signedIn) return <Navigate to={paths.login.path} replace state={{ from: location.pathname }} />;
  return children;
}
