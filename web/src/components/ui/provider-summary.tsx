import { LogoAvatar } from '@/components/ui/logo-avatar';
import styles from './provider-summary.module.css';

export interface ProviderSummaryData {
  name: string;
  logo?: string | null;
  address1?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
}

/** A provider's logo, name and address, as the eligibility, Home and membership screens show it. */
export function ProviderSummary({ provider, size = 56 }: { provider: ProviderSummaryData; size?: number }) {
  const cityLine = [provider.city, [provider.state, provider.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return (
    <div className={styles.summary}>
      <LogoAvatar name={provider.name} logo={provider.logo} size={size} />
      <div className={styles.text}>
        <strong className={styles.name}>{provider.name}</strong>
        {provider.address1 ? <span>{provider.address1}</span> : null}
        {cityLine ? <span>{cityLine}</span> : null}
      </div>
    </div>
  );
}
