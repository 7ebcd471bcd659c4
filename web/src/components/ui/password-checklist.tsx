import { CheckIcon } from '@/components/icons/icons';
import { PASSWORD_REQUIREMENTS } from '@/lib/validation';
import styles from './password-checklist.module.css';

/** The live list of password requirements, each ticked as soon as the typed password meets it. */
export function PasswordChecklist({ password, title = 'Your password must contain:' }: { password: string; title?: string }) {
  return (
    <div className={styles.box}>
      <p className={styles.title}>{title}</p>
      <ul className={styles.list} aria-label="Password requirements">
        {PASSWORD_REQUIREMENTS.map((requirement) => {
          const met = requirement.met(password);
          return (
            <li key={requirement.key} className={met ? styles.met : styles.unmet} data-met={met}>
              <span className={styles.icon} aria-hidden="true">
                {met ? <CheckIcon size={14} /> : null}
              </span>
              {requirement.label}
              <span className="visually-hidden">{met ? ' (met)' : ' (not met)'}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
