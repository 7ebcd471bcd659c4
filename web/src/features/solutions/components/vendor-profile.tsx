import { useNavigate } from 'react-router';
import { HeartIcon } from '@/components/icons/icons';
import { Button } from '@/components/ui/button';
import { Chip } from '@/components/ui/chip';
import { MarketplaceLoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useAccountKind } from '@/lib/session';
import { useGoBack } from '@/lib/use-go-back';
import { useVendor } from '@/api/solutions/get-vendor';
import { useToggleVendorFavorite } from '@/api/solutions/toggle-vendor-favorite';
import { WebsiteButton } from '@/components/ui/website-button';
import { BackButton, ContactList, SolutionHead } from './solution-parts';
import styles from './solutions.module.css';

/** /marketplace/vendor/details/{id}: a point-solution vendor. */
export function VendorProfile({ vendorId }: { vendorId: number }) {
  const vendor = useVendor(vendorId);
  const account = useAccountKind();
  const signedIn = account !== null;
  const toggle = useToggleVendorFavorite();
  const navigate = useNavigate();
  const goBack = useGoBack();
  // The spec's Back to Solution targets include /dpc-providers/solutions: a provider goes back to their solutions.
  const backToSolution = account === 'provider' ? () => navigate(paths.providerSolutions.path) : goBack;
  const closeTarget = account === 'provider' ? paths.providerSolutions.path : paths.marketplace.path;

  if (vendor.isPending) return <Spinner label="Loading vendor" />;
  if (vendor.isError) return <MarketplaceLoadError className={styles.page} title="Oops. Something went wrong" />;
  const data = vendor.data;
  return (
    <div className={styles.page}>
      <BackButton label="Back to Solution" onClick={backToSolution} />
      <section className={styles.card}>
        <SolutionHead name={data.companyName} logo={data.logo} category={data.category} badge={<Chip label="Non-Provider Vendor" tone="neutral" />}>
          {signedIn ? (
            <button
              type="button"
              className={styles.heart}
              aria-pressed={data.favorite}
              aria-label={data.favorite ? 'Remove from favorites' : 'Add to favorites'}
              disabled={toggle.isPending}
              onClick={() => toggle.mutate({ entity: 'vendor', vendor: data.id, favorite: !data.favorite })}
            >
              <HeartIcon filled={data.favorite} />
            </button>
          ) : null}
        </SolutionHead>
        <details className={styles.details} open>
          <summary>Details</summary>
          <p>{data.details.description || 'No description yet.'}</p>
          {data.details.website ? <WebsiteButton website={data.details.website} /> : null}
        </details>
        <details className={styles.details}>
          <summary>Contact Information</summary>
          <ContactList
            label="Point of contact"
            name={[data.contact.firstName, data.contact.lastName].filter(Boolean).join(' ')}
            email={data.contact.email}
            address={data.contact.address1}
          />
        </details>
        <div className={styles.footer}>
          <Button variant="secondary" onClick={backToSolution}>
            Back to Solution
          </Button>
          <Button onClick={() => navigate(closeTarget)}>Close</Button>
        </div>
      </section>
    </div>
  );
}
