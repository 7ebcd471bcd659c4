import { Link } from 'react-router';
import { paths } from '@/config/paths';

/** The Nearcare mark and name, linking to the marketplace. */
export function BrandLink({ className, size }: { className: string; size: number }) {
  return (
    <Link to={paths.marketplace.path} className={className} aria-label="Nearcare marketplace">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="currentColor" />
        <path d="M13 7h6v6h6v6h-6v6h-6v-6H7v-6h6z" fill="#fff" />
      </svg>
      <span>Nearcare</span>
    </Link>
  );
}
