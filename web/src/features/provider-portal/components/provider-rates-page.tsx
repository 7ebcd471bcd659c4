import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { formatDate, formatMoney } from '@/lib/format';
import type { Participation } from '@/api/providers/types';
import { useParticipations } from '@/api/providers/get-participations';
import { PROVIDER_TEXTS } from '../utils/participation';
import { StatusChip } from './rate-figures';
import styles from './provider-portal.module.css';

/**
 * /dpc-providers/rates (the spec does not show it): the organisation's participations, newest
 * first, with their rate, fees and what the provider nets monthly and yearly. A table on wide
 * screens, one card per participation on phones.
 */
export function ProviderRatesPage() {
  const participations = useParticipations();
  return (
    <div className={styles.page}>
      <div className={styles.section}>
        <h1>Rates</h1>
        <p className={styles.muted}>
          Your participations in marketplace solutions, newest first: the rate you chose and what you net per member after fees (base rate and fees
          per member per month).
        </p>
      </div>
      {participations.isPending ? <Spinner label="Loading participations" /> : null}
      {participations.isError ? (
        <Alert tone="error" title="Oops. Something went wrong">
          We could not load your participations. Please reload the page.
        </Alert>
      ) : null}
      {participations.isSuccess && participations.data.length === 0 ? (
        <p className={styles.empty}>
          {PROVIDER_TEXTS.noParticipations} <Link to={paths.providerSolutions.path}>Browse solutions</Link>
        </p>
      ) : null}
      {participations.isSuccess && participations.data.length > 0 ? (
        <>
          <div className={`${styles.tablePanel} ${styles.desktopOnly}`}>
            <table className={styles.table}>
              <caption className="visually-hidden">Participations</caption>
              <thead>
                <tr>
                  <th scope="col">Solution and rate group</th>
                  <th scope="col">Status</th>
                  <th scope="col" className={styles.num}>
                    Base rate
                  </th>
                  <th scope="col" className={styles.num}>
                    Fees
                  </th>
                  <th scope="col" className={styles.num}>
                    Monthly total
                  </th>
                  <th scope="col" className={styles.num}>
                    Yearly total
                  </th>
                  <th scope="col">Dates</th>
                </tr>
              </thead>
              <tbody>
                {participations.data.map((row) => (
                  <tr key={row.id}>
                    <td className={styles.wide}>
                      <Link to={paths.providerSolutionDetails.getHref(row.solution.id)}>{row.solution.name}</Link>
                      <span className={styles.subline}>{row.rate.group}</span>
                    </td>
                    <td>
                      <StatusChip status={row.status} />
                    </td>
                    <td className={styles.num}>
                      {formatMoney(row.rate.baseRate)}
                      {row.requestedRate ? <span className={styles.subline}>change to {formatMoney(row.requestedRate.baseRate)} pending</span> : null}
                    </td>
                    <td className={styles.num}>{formatMoney(row.monthly.fees)}</td>
                    <td className={styles.num}>{formatMoney(row.monthly.total)}</td>
                    <td className={styles.num}>{formatMoney(row.yearly.total)}</td>
                    <td className={styles.dates}>
                      Requested {formatDate(row.requestedAt)}
                      <br />
                      Decided {formatDate(row.decidedAt)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className={styles.participationList}>
            {participations.data.map((row) => (
              <li key={row.id}>
                <ParticipationCard row={row} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

function ParticipationCard({ row }: { row: Participation }) {
  return (
    <article className={styles.participationItem} aria-label={row.solution.name}>
      <div className={styles.sectionHead}>
        <h3>
          <Link to={paths.providerSolutionDetails.getHref(row.solution.id)}>{row.solution.name}</Link>
        </h3>
        <StatusChip status={row.status} />
      </div>
      <dl className={styles.facts}>
        <dt>Rate group</dt>
        <dd>{row.rate.group}</dd>
        <dt>Base rate</dt>
        <dd>{formatMoney(row.rate.baseRate)} / member / month</dd>
        {row.requestedRate ? (
          <>
            <dt>Requested change</dt>
            <dd>
              {row.requestedRate.group}, {formatMoney(row.requestedRate.baseRate)} / member / month (pending)
            </dd>
          </>
        ) : null}
        <dt>Fees</dt>
        <dd>{formatMoney(row.monthly.fees)} / month</dd>
        <dt>Total</dt>
        <dd>{formatMoney(row.monthly.total)} / month</dd>
        <dt>Total yearly</dt>
        <dd>{formatMoney(row.yearly.total)} / year</dd>
        <dt>Requested</dt>
        <dd>{formatDate(row.requestedAt)}</dd>
        <dt>Decided</dt>
        <dd>{formatDate(row.decidedAt)}</dd>
      </dl>
    </article>
  );
}
