import { CheckIcon } from '@/components/icons/icons';
import styles from './stepper.module.css';

/**
 * The onboarding step header: steps before `current` are done, `current` is highlighted.
 * `current` is zero-based; pass the length to show every step done.
 */
export function Stepper({ steps, current, label = 'Progress' }: { steps: string[]; current: number; label?: string }) {
  return (
    <ol className={styles.steps} aria-label={label}>
      {steps.map((step, index) => {
        const state = index < current ? 'done' : index === current ? 'current' : 'todo';
        return (
          <li key={step} className={`${styles.step} ${styles[state]}`} aria-current={state === 'current' ? 'step' : undefined}>
            <span className={styles.marker} aria-hidden="true">
              {state === 'done' ? <CheckIcon size={14} /> : index + 1}
            </span>
            <span className={styles.label}>
              {step}
              {state === 'done' ? <span className="visually-hidden"> (done)</span> : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
