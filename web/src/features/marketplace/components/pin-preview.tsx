import { Button } from '@/components/ui/button';
import { formatMiles, truncate } from '@/lib/format';
import { useLocationPreview } from '@/api/market/get-location-preview';
import styles from './pin-preview.module.css';

/** The info window's content: the clinic's preview card. */
export function PinPreview({ locationId, onOpen }: { locationId: number; onOpen: () => void }) {
  const preview = useLocationPreview(locationId);
  if (preview.isPending) return <p className={styles.muted}>Loading…</p>;
  if (preview.isError || !preview.data) return <p className={styles.muted}>Oops. Something went wrong</p>;
  const item = preview.data;
  const distance = formatMiles(item.distance);
  return (
    <div className={styles.preview}>
      <strong className={styles.name}>{item.name}</strong>
      {item.locationName && item.locationName !== item.name ? <span className={styles.muted}>{item.locationName}</span> : null}
      <span>
        {truncate(item.address, 40)}
        {item.city ? `, ${item.city}, ${item.state} ${item.zipCode}` : ''}
      </span>
      {distance ? <span className={styles.muted}>{distance}</span> : null}
      <span className={item.newPatients ? styles.accepting : styles.muted}>{item.newPatients ? 'Accepting new patients' : 'Not accepting new patients'}</span>
      <Button size="sm" onClick={onOpen}>
        View Details
      </Button>
    </div>
  );
}
