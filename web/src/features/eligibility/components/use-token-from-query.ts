import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { setAccessToken } from '@/lib/session';

/** Stores an access token passed as `?token=` (a link from an email) when it looks like one. */
export function useTokenFromQuery() {
  const [params, setParams] = useSearchParams();
  const token = params.get('token');
  useEffect(() => {
    if (!token) return;
    if (token.split('.').length === 3) setAccessToken(token);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('token');
        return next;
      },
      { replace: true },
    );
  }, [token, setParams]);
}
