import { CheckIcon, MailIcon } from '@/components/icons/icons';
import type { Employer } from '@/api/market/types';
import styles from './employer-banner.module.css';

/**
 * The active employer pays. Any other: a representative contacts the company once someone asks
 * (Notify Me, or an enrolment refused for the employer), which records the request for sales.
 */
export function EmployerBanner({ employer }: { employer: Employer }) {
  if (employer.status === 'active') {
    return (
      <div className={`${styles.banner} ${styles.active}`} role="status" data-testid="employer-banner">
        <CheckIcon size={20} />
        <p>
          <strong>{employer.companyName}</strong> is participating and will pay up to 100% of the benefit.
        </p>
      </div>
    );
  }
  return (
    <div className={`${styles.banner} ${styles.pending}`} role="status" data-testid="employer-banner">
      <MailIcon size={20} />
      <p>
        <strong>{employer.companyName}</strong> is not yet participating. Ask for the benefit (Notify Me when you register, or by
        choosing a clinic) and a representative will contact the company.
      </p>
    </div>
  );
}

/**
 * The banner's room while the employer (from a company link, or the member's account) is worked
 * out: as tall as the participating banner, so the list does not move when it comes.
 */
export function EmployerBannerPlaceholder() {
  return (
    <div className={`${styles.banner} ${styles.placeholder}`} aria-hidden="true" data-testid="employer-banner-placeholder">
      <CheckIcon size={20} />
      <p>
        <strong>Your employer</strong> is participating and will pay up to 100% of the benefit.
      </p>
    </div>
  );
}
