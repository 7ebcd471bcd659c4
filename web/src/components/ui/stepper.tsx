import { CheckIcon } from '@/components/icons/icons';
import styles from './stepper.module.css';

/**
 * The onboarding step header: `current` (zero-based; the length for none) is highlighted. A step
 * is ticked when `done` says it is true for this member; without `done`, the steps before
 * `current` are.
 */
export function Stepper({ steps, current, done, label = 'Progress' }: { steps: string[]; current: number; done?: readonly boolean[]; label?: string }) {
  return (
    <ol className={styles.steps} aria-label={label}>
      {steps.map((step, index) => {
        const ticked = done ? done[index] === true : index < current;
        const state = index === current ? 'current' : ticked ? 'done' : 'todo';
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
