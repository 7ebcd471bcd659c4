import { Card } from '@/components/ui/card';
import { ProviderSummary } from '@/components/ui/provider-summary';
import { Spinner } from '@/components/ui/spinner';
import type { ProviderCard } from '@/api/eligibility/types';
import styles from './eligibility.module.css';

interface YourProviderCardProps {
  /** A provider was chosen (on the account, or before signing up). */
  hasProvider: boolean;
  location: ProviderCard | undefined;
  loading: boolean;
  /** The name to show while the provider's details are not available. */
  fallbackName: string | undefined;
}

/** The eligibility page's "Your provider" card. */
export function YourProviderCard({ hasProvider, location, loading, fallbackName }: YourProviderCardProps) {
  return (
    <Card title="Your provider">
      {hasProvider ? (
        location ? (
          <ProviderSummary
            provider={{ name: location.companyName, logo: location.logo, address1: location.contact?.address1, city: location.contact?.city, state: location.contact?.state, zip: location.contact?.zipCode }}
          />
        ) : loading ? (
          <Spinner inline label="Loading your provider" />
        ) : (
          <p className={styles.muted}>{fallbackName ?? 'Provider details are not available.'}</p>
        )
      ) : (
        <p className={styles.muted}>You can select a provider after confirming your eligibility.</p>
      )}
    </Card>
  );
}
