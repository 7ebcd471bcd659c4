import { ChevronLeftIcon, ChevronRightIcon } from '@/components/icons/icons';
import styles from './pager.module.css';

/** How many numbered page buttons the pager shows at once. */
export const VISIBLE_PAGE_BUTTONS = 4;

/** The window of page numbers around `current`, at most `visible` long, inside 1..total. */
export function visiblePages(current: number, total: number, visible = VISIBLE_PAGE_BUTTONS): number[] {
  const count = Math.min(visible, total);
  let start = current - Math.floor((count - 1) / 2);
  start = Math.max(1, Math.min(start, total - count + 1));
  return Array.from({ length: count }, (_, index) => start + index);
}

interface PagerProps {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  label?: string;
}

/** Page buttons; nothing is rendered unless there is more than one page. */
export function Pager({ page, totalPages, onChange, label = 'Result pages' }: PagerProps) {
  if (totalPages <= 1) return null;
  const pages = visiblePages(page, totalPages);
  return (
    <nav className={styles.pager} aria-label={label}>
      <button
        type="button"
        className={styles.step}
        onClick={() => onChange(page - 1)}
        disabled={page <= 1}
        aria-label="Previous page"
      >
        <ChevronLeftIcon size={18} />
      </button>
      {pages.map((number) => (
        <button
          key={number}
          type="button"
          className={`${styles.page} ${number === page ? styles.current : ''}`}
          aria-current={number === page ? 'page' : undefined}
          aria-label={`Page ${number}`}
          onClick={() => onChange(number)}
        >
          {number}
        </button>
      ))}
      <button
        type="button"
        className={styles.step}
        onClick={() => onChange(page + 1)}
        disabled={page >= totalPages}
        aria-label="Next page"
      >
        <ChevronRightIcon size={18} />
      </button>
    </nav>
  );
}
