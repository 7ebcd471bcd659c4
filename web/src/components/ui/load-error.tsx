import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Alert } from './alert';

/** A marketplace page that failed to load: the error and a link back to the marketplace. */
export function MarketplaceLoadError({ title, className }: { title: string; className?: string }) {
  return (
    <div className={className}>
      <Alert tone="error" title={title}>
        <Link to={paths.marketplace.path}>Back to the marketplace</Link>
      </Alert>
    </div>
  );
}
