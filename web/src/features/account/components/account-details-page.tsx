import { useEffect, type ComponentType } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { SettingsIcon, UserIcon, UsersIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { useMemberInfo, type Member } from '@/lib/member';
import { redirectTarget } from '@/lib/storage';
import { MESSAGES } from '@/lib/validation';
import { FamilyPanel } from './family-panel';
import { PersonalPanel } from './personal-panel';
import { SettingsPanel } from './settings-panel';
import styles from './account.module.css';

export type AccountPanel = 'personal' | 'family' | 'settings';

const PANELS: { key: AccountPanel; title: string; subtitle: string; Icon: ComponentType<{ size?: number }> }[] = [
  { key: 'personal', title: 'Personal', subtitle: 'Personal, contact and insurance info', Icon: UserIcon },
  { key: 'family', title: 'Family Members', subtitle: 'Manage family members', Icon: UsersIcon },
  { key: 'settings', title: 'Settings', subtitle: 'Login, password, notifications', Icon: SettingsIcon },
];

/** Loads the member for an account screen, with the loading and failure states every one shares. */
export function WithMember({ children }: { children: (member: Member) => React.ReactNode }) {
  const member = useMemberInfo();
  if (member.isPending) return <Spinner label="Loading your account" />;
  if (member.isError || !member.data) {
    return (
      <div className={styles.page}>
        <Alert tone="error">{errorText(member.error, MESSAGES.tryLater)}</Alert>
      </div>
    );
  }
  return <>{children(member.data)}</>;
}

/** /account/details (2.17): a left menu with the Personal, Family Members and Settings panels. */
export function AccountDetailsPage() {
  const [params, setParams] = useSearchParams();
  // A flow that could not finish (the post-enrolment lookup) flags it here.
  const flagged = (useLocation().state as { message?: string } | null)?.message;
  const requested = params.get('panel') as AccountPanel | null;
  const panel: AccountPanel = requested && PANELS.some((item) => item.key === requested) ? requested : 'personal';

  useEffect(() => {
    redirectTarget.set(paths.accountDetails.path);
  }, []);

  return (
    <WithMember>
      {(member) => (
        <div className={styles.page}>
          <header className={styles.header}>
            <h1>My Account</h1>
          </header>
          {flagged ? <Alert tone="error">{flagged}</Alert> : null}
          <div className={styles.layout}>
            <nav aria-label="Account sections">
              <ul className={styles.menu}>
                {PANELS.map(({ key, title, subtitle, Icon }) => (
                  <li key={key}>
                    <button
                      type="button"
                      className={styles.menuItem}
                      aria-current={panel === key}
                      onClick={() => setParams(key === 'personal' ? {} : { panel: key }, { replace: true })}
                    >
                      <Icon size={20} />
                      <span className={styles.menuText}>
                        <strong>{title}</strong>
                        <span>{subtitle}</span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </nav>
            {panel === 'personal' ? <PersonalPanel member={member} /> : null}
            {panel === 'family' ? <FamilyPanel member={member} /> : null}
            {panel === 'settings' ? <SettingsPanel member={member} /> : null}
          </div>
        </div>
      )}
    </WithMember>
  );
}
