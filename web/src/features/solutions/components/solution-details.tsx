import { Link, useNavigate } from 'react-router';
import { ChevronLeftIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CollapsibleText } from '@/components/ui/collapsible-text';
import { LogoAvatar } from '@/components/ui/logo-avatar';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { withProtocol } from '@/lib/format';
import { useSolution } from '@/api/solutions/get-solution';
import styles from './solutions.module.css';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** /marketplace/solutions/details/{id} and /marketplace/details/{id}: a marketplace solution. */
export function SolutionDetails({ solutionId }: { solutionId: number }) {
  const solution = useSolution(solutionId);
  const navigate = useNavigate();

  function goBack() {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate(paths.marketplace.path);
  }

  if (solution.isPending) return <Spinner label="Loading solution" />;
  if (solution.isError) {
    return (
      <div className={styles.page}>
        <Alert tone="error" title="Oops. Something went wrong">
          <Link to={paths.marketplace.path}>Back to the marketplace</Link>
        </Alert>
      </div>
    );
  }
  const data = solution.data;
  const contact = data.facilitator.primaryContact;
  return (
    <div className={styles.page}>
      <button type="button" className={styles.back} onClick={goBack}>
        <ChevronLeftIcon size={18} /> Back to Solutions
      </button>
      <section className={styles.card}>
        <div className={styles.head}>
          <LogoAvatar name={data.name} logo={data.logo} size={72} />
          <div>
            <h1>{data.name}</h1>
            <p className={styles.muted}>{data.category}</p>
          </div>
        </div>
        <section className={styles.block}>
          <h2>Details</h2>
          {data.details.description ? <CollapsibleText text={data.details.description} /> : null}
          {data.details.definition ? <p className={styles.muted}>{data.details.definition}</p> : null}
          {data.details.website ? (
            <div>
              <Button variant="secondary" size="sm" onClick={() => window.open(withProtocol(data.details.website), '_blank', 'noopener')}>
                Visit Website
              </Button>
            </div>
          ) : null}
        </section>
        <section className={styles.block}>
          <h2>Solution Facilitator</h2>
          <dl className={styles.contact}>
            <dt>Primary contact</dt>
            <dd>{[contact.firstName, contact.lastName].filter(Boolean).join(' ') || '—'}</dd>
            <dt>Email</dt>
            <dd>{contact.email ? <a href={`mailto:${contact.email}`}>{contact.email}</a> : '—'}</dd>
            <dt>Address</dt>
            <dd>{data.facilitator.address1 || '—'}</dd>
          </dl>
        </section>
        {data.rate ? (
          <section className={styles.block}>
            <h2>Rates &amp; Fees</h2>
            <p>
              <strong>{usd.format(data.rate.amount)}</strong> per member per month (US$ PMPM), paid monthly.
            </p>
          </section>
        ) : null}
      </section>
    </div>
  );
}
