import { CollapsibleText } from '@/components/ui/collapsible-text';
import { MarketplaceLoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { formatMoney } from '@/lib/format';
import { useGoBack } from '@/lib/use-go-back';
import { useSolution } from '@/api/solutions/get-solution';
import { WebsiteButton } from '@/components/ui/website-button';
import { BackButton, ContactList, SolutionHead } from './solution-parts';
import styles from './solutions.module.css';

/** /marketplace/solutions/details/{id} and /marketplace/details/{id}: a marketplace solution. */
export function SolutionDetails({ solutionId }: { solutionId: number }) {
  const solution = useSolution(solutionId);
  const goBack = useGoBack();

  if (solution.isPending) return <Spinner label="Loading solution" />;
  if (solution.isError) return <MarketplaceLoadError className={styles.page} title="Oops. Something went wrong" />;
  const data = solution.data;
  const contact = data.facilitator.primaryContact;
  return (
    <div className={styles.page}>
      <BackButton label="Back to Solutions" onClick={goBack} />
      <section className={styles.card}>
        <SolutionHead name={data.name} logo={data.logo} category={data.category} />
        <section className={styles.block}>
          <h2>Details</h2>
          {data.details.description ? <CollapsibleText text={data.details.description} /> : null}
          {data.details.definition ? <p className={styles.muted}>{data.details.definition}</p> : null}
          {data.details.website ? (
            <div>
              <WebsiteButton website={data.details.website} />
            </div>
          ) : null}
        </section>
        <section className={styles.block}>
          <h2>Solution Facilitator</h2>
          <ContactList
            label="Primary contact"
            name={[contact.firstName, contact.lastName].filter(Boolean).join(' ')}
            email={contact.email}
            address={data.facilitator.address1}
          />
        </section>
        {data.rate ? (
          <section className={styles.block}>
            <h2>Rates &amp; Fees</h2>
            <p>
              <strong>{formatMoney(data.rate.amount)}</strong> per member per month (US$ PMPM), paid monthly.
            </p>
          </section>
        ) : null}
      </section>
    </div>
  );
}
