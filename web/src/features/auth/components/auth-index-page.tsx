import { AuthCard } from '@/components/ui/auth-card';
import { LinkButton } from '@/components/ui/button';
import { paths } from '@/config/paths';
import styles from './auth.module.css';

/** /auth/index: the entry screen with Login and Register buttons (2.6). */
export function AuthIndexPage() {
  return (
    <AuthCard title="Welcome to Nearcare" subtitle="Primary care your employer sponsors, close to you.">
      <div className={styles.stack}>
        <LinkButton to={paths.login.path} block>
          Login
        </LinkButton>
        <LinkButton to={paths.register.path} variant="secondary" block>
          Register
        </LinkButton>
      </div>
    </AuthCard>
  );
}
