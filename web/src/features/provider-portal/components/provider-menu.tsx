import { useEffect } from 'react';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { clearAccessToken, signOut } from '@/lib/session';
import { useIsMobile } from '@/lib/use-media-query';
import { useProviderMe } from '@/api/providers/get-provider-me';
import styles from './provider-portal.module.css';

/**
 * The provider's header: the organisation's name (GET /dpcproviders/me) and Sign Out (in the
 * drawer on phones). A token the server no longer accepts (401) is dropped, which signs out, as
 * the member header does with the member info.
 */
export function ProviderMenu() {
  const me = useProviderMe();
  const isMobile = useIsMobile();
  const sessionRefused = me.isError && isApiError(me.error, 401);
  useEffect(() => {
    if (sessionRefused) clearAccessToken();
  }, [sessionRefused]);
  return (
    <div className={styles.providerMenu}>
      <span className={styles.organisation} title={me.data?.email}>
        {me.data?.organisation.name ?? ''}
      </span>
      {isMobile ? null : (
        <Button variant="ghost" size="sm" onClick={signOut}>
          Sign Out
        </Button>
      )}
    </div>
  );
}
