import { Button } from '@/components/ui/button';
import { signOut } from '@/lib/session';
import { useIsMobile } from '@/lib/use-media-query';
import { useProviderMe } from '@/api/providers/get-provider-me';
import styles from './provider-portal.module.css';

/** The provider's header: the organisation's name (GET /dpcproviders/me) and Sign Out (in the drawer on phones). */
export function ProviderMenu() {
  const me = useProviderMe();
  const isMobile = useIsMobile();
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
