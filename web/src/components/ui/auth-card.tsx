import type { ReactNode } from 'react';
import { Link } from 'react-router';
import styles from './auth-card.module.css';

interface AuthCardProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** Wider card for forms with two columns. */
  wide?: boolean;
}

/**
 * The frame of the sign-in, sign-up and password screens: the brand, a centred card with the
 * screen's title, and an optional line under the card (links to register or log in).
 */
export function AuthCard({ title, subtitle, children, footer, wide = false }: AuthCardProps) {
  return (
    <div className={styles.page}>
      <Link to="/marketplace" className={styles.brand} aria-label="Nearcare marketplace">
        <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true">
          <rect width="32" height="32" rx="8" fill="currentColor" />
          <path d="M13 7h6v6h6v6h-6v6h-6v-6H7v-6h6z" fill="#fff" />
        </svg>
        <span>Nearcare</span>
      </Link>
      <section className={`${styles.card} ${wide ? styles.wide : ''}`} aria-labelledby="auth-card-title">
        <header className={styles.header}>
          <h1 id="auth-card-title">{title}</h1>
          {subtitle ? <p className={styles.subtitle}>{subtitle}</p> : null}
        </header>
        {children}
      </section>
      {footer ? <div className={styles.footer}>{footer}</div> : null}
    </div>
  );
}
