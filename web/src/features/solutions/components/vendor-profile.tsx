import { Link, useNavigate } from 'react-router';
import { ChevronLeftIcon, HeartIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Chip } from '@/components/ui/chip';
import { LogoAvatar } from '@/components/ui/logo-avatar';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { withProtocol } from '@/lib/format';
import { useSignedIn } from '@/lib/session';
import { useVendor } from '@/api/solutions/get-vendor';
import { useToggleVendorFavorite } from '@/api/solutions/toggle-vendor-favorite';
import styles from './solutions.module.css';

/** /marketplace/vendor/details/{id}: a point-solution vendor. */
export function VendorProfile({ vendorId }: { vendorId: number }) {
  const vendor = useVendor(vendorId);
  const signedIn = useSignedIn();
  const toggle = useToggleVendorFavorite();
  const navigate = useNavigate();

  function backToSolution() {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate(paths.marketplace.path);
  }

  if (vendor.isPending) return <Spinner label="Loading vendor" />;
  if (vendor.isError) {
    return (
      <div className={styles.page}>
        <Alert tone="error" title="Oops. Something went wrong">
          <Link to={paths.marketplace.path}>Back to the marketplace</Link>
        </Alert>
      </div>
    );
  }
  const data = vendor.data;
  const contactName = [data.contact.firstName, data.contact.lastName].filter(Boolean).join(' ');
  return (
    <div className={styles.page}>
      <button type="button" className={styles.back} onClick={backToSolution}>
        <ChevronLeftIcon size={18} /> Back to Solution
      </button>
      <section className={styles.card}>
        <div className={styles.head}>
          <LogoAvatar name={data.companyName} logo={data.logo} size={72} />
          <div>
            <h1>{data.companyName}</h1>
            <p className={styles.muted}>{data.category}</p>
            <Chip label="Non-Provider Vendor" tone="neutral" />
          </div>
          {signedIn ? (
            <button
              type="button"
              className={styles.heart}
              aria-pressed={data.favorite}
              aria-label={data.favorite ? 'Remove from favourites' : 'Add to favourites'}
              disabled={toggle.isPending}
              onClick={() => toggle.mutate({ entity: 'vendor', vendor: data.id, favorite: !data.favorite })}
            >
              <HeartIcon filled={data.favorite} />
            </button>
          ) : null}
        </div>
        <details className={styles.details} open>
          <summary>Details</summary>
          <p>{data.details.description || 'No description yet.'}</p>
          {data.details.website ? (
            <Button variant="secondary" size="sm" onClick={() => window.open(withProtocol(data.details.website), '_blank', 'noopener')}>
              Visit Website
            </Button>
          ) : null}
        </details>
        <details className={styles.details}>
          <summary>Contact Information</summary>
          <dl className={styles.contact}>
            <dt>Point of contact</dt>
            <dd>{contactName || '—'}</dd>
            <dt>Email</dt>
            <dd>{data.contact.email ? <a href={`mailto:${data.contact.email}`}>{data.contact.email}</a> : '—'}</dd>
            <dt>Address</dt>
            <dd>{data.contact.address1 || '—'}</dd>
          </dl>
        </details>
        <div className={styles.footer}>
          <Button variant="secondary" onClick={backToSolution}>
            Back to Solution
          </Button>
          <Button onClick={() => navigate(paths.marketplace.path)}>Close</Button>
        </div>
      </section>
    </div>
  );
}
