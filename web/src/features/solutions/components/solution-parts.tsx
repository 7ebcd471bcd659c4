import type { ReactNode } from 'react';
import { ChevronLeftIcon } from '@/components/icons/icons';
import { LogoAvatar } from '@/components/ui/logo-avatar';
import styles from './solutions.module.css';

/** The page's back button ('Back to Solutions', 'Back to Solution'). */
export function BackButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className={styles.back} onClick={onClick}>
      <ChevronLeftIcon size={18} /> {label}
    </button>
  );
}

/** The logo, the name and the category; `badge` goes under them, `children` beside them. */
export function SolutionHead({ name, logo, category, badge, children }: { name: string; logo: string | null | undefined; category: string; badge?: ReactNode; children?: ReactNode }) {
  return (
    <div className={styles.head}>
      <LogoAvatar name={name} logo={logo} size={72} />
      <div>
        <h1>{name}</h1>
        <p className={styles.muted}>{category}</p>
        {badge}
      </div>
      {children}
    </div>
  );
}


/** The contact person, email and address; a missing one shows a dash. */
export function ContactList({ label, name, email, address }: { label: string; name: string; email: string | null | undefined; address: string | null | undefined }) {
  return (
    <dl className={styles.contact}>
      <dt>{label}</dt>
      <dd>{name || '—'}</dd>
      <dt>Email</dt>
      <dd>{email ? <a href={`mailto:${email}`}>{email}</a> : '—'}</dd>
      <dt>Address</dt>
      <dd>{address || '—'}</dd>
    </dl>
  );
}
