import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { setAccessToken } from '@/lib/session';

interface TokenFromQueryOptions {
  /** Clear every query parameter once the token is read (/confirm-info), not only `token`. */
  clearAll?: boolean;
}

/** Stores an access token passed as `?token=` (a link from an email) when it looks like one. */
export function useTokenFromQuery({ clearAll = false }: TokenFromQueryOptions = {}) {
  const [params, setParams] = useSearchParams();
  const token = params.get('token');
  useEffect(() => {
    if (!token) return;
    if (token.split('.').length === 3) setAccessToken(token);
    if (clearAll) {
      setParams({}, { replace: true });
      return;
    }
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('token');
        return next;
      },
      { replace: true },
    );
  }, [token, setParams, clearAll]);
}
