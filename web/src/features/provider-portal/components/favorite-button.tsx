import { HeartIcon } from '@/components/icons/icons';
import { useToggleVendorFavorite } from '@/api/solutions/toggle-vendor-favorite';
import styles from './provider-portal.module.css';

/** The favourite heart of a solution; it changes only after the server accepts (POST /dpcproviders/market/favorite). */
export function FavoriteButton({ solutionId, name, favorite }: { solutionId: number; name: string; favorite: boolean }) {
  const toggle = useToggleVendorFavorite();
  return (
    <button
      type="button"
      className={styles.heart}
      aria-pressed={favorite}
      aria-label={favorite ? `Remove ${name} from favorites` : `Add ${name} to favorites`}
      disabled={toggle.isPending}
      onClick={() => toggle.mutate({ entity: 'solution', solution: solutionId, favorite: !favorite })}
    >
      <HeartIcon filled={favorite} />
    </button>
  );
}
