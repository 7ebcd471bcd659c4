import { CloseIcon } from '@/components/icons/icons';
import styles from './chip.module.css';

interface ChipProps {
  label: string;
  /** When given, the chip shows a remove button named "Remove {label}". */
  onRemove?: () => void;
  tone?: 'neutral' | 'primary';
}

export function Chip({ label, onRemove, tone = 'primary' }: ChipProps) {
  return (
    <span className={`${styles.chip} ${styles[tone]}`}>
      <span className={styles.label} title={label}>
        {label}
      </span>
      {onRemove ? (
        <button type="button" className={styles.remove} onClick={onRemove} aria-label={`Remove ${label}`}>
          <CloseIcon size={14} />
        </button>
      ) : null}
    </span>
  );
}
