import type { CalculationPeriod } from '@/api/providers/types';
import type { FeeLine } from '@/api/solutions/types';
import { formatMoney } from '@/lib/format';
import { participationState, stateLabel, type ParticipationState } from '../utils/participation';
import styles from './provider-portal.module.css';

/** "TPA (1.50%)" or "Solution facilitator ($5.00)": a fee's name with its rate. */
export function feeName(fee: FeeLine): string {
  const rate = fee.type === 'percent' ? `${fee.value ?? fee.amount}%` : formatMoney(fee.value ?? fee.amount);
  return `${fee.entity} (${rate})`;
}

/**
 * A calculation as a table: the base rate, each fee (subtracted), the fees' sum and what the
 * provider nets, monthly and yearly. Every figure is the server's decimal string.
 */
export function CalculationTable({ monthly, yearly, caption }: { monthly: CalculationPeriod; yearly: CalculationPeriod; caption?: string }) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        {caption ? <caption className="visually-hidden">{caption}</caption> : null}
        <thead>
          <tr>
            <th scope="col">Per member</th>
            <th scope="col" className={styles.num}>
              Monthly
            </th>
            <th scope="col" className={styles.num}>
              Yearly
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Base rate</th>
            <td className={styles.num}>{formatMoney(monthly.baseRate)}</td>
            <td className={styles.num}>{formatMoney(yearly.baseRate)}</td>
          </tr>
          {monthly.breakdown.map((fee, index) => (
            <tr key={`${fee.entity}-${index}`}>
              <th scope="row">{feeName(fee)}</th>
              <td className={styles.num}>−{formatMoney(fee.amount)}</td>
              <td className={styles.num}>−{formatMoney(yearly.breakdown[index]?.amount)}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">Fees</th>
            <td className={styles.num}>−{formatMoney(monthly.fees)}</td>
            <td className={styles.num}>−{formatMoney(yearly.fees)}</td>
          </tr>
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td className={styles.num}>{formatMoney(monthly.total)}</td>
            <td className={styles.num}>{formatMoney(yearly.total)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** The state's chip: Not contracted, Pending Approval (amber), Active (green), Inactive (red). */
export function StatusChip({ status, state }: { status?: string | null; state?: ParticipationState }) {
  const shown = state ?? participationState(status);
  return <span className={`${styles.status} ${styles[shown]}`}>{stateLabel(shown)}</span>;
}
