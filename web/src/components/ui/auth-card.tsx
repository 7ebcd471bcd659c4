import type { ReactNode } from 'react';
import { BrandLink } from './brand-link';
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
      <BrandLink className={styles.brand} size={32} />
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
