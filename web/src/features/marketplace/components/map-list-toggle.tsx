import { useSearchParams } from 'react-router';
import { ListIcon, MapIcon } from '@/components/icons/icons';
import { BottomBar } from '@/components/ui/bottom-bar';
import { Button } from '@/components/ui/button';
import styles from './marketplace-page.module.css';

type MobileView = 'list' | 'map';

/**
 * Which of the list and the map show: both on wide screens, one at a time on a phone. The phone's
 * choice is in the URL (`view=map`), so Back from the map returns to the list and a link keeps it.
 */
export function useMapListView(isMobile: boolean) {
  const [params, setParams] = useSearchParams();
  const mobileView: MobileView = params.get('view') === 'map' ? 'map' : 'list';
  return {
    mobileView,
    toggle: () =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (mobileView === 'list') next.set('view', 'map');
        else next.delete('view');
        return next;
      }),
    showMap: !isMobile || mobileView === 'map',
    showList: !isMobile || mobileView === 'list',
  };
}

/** The phone's View Map / View List button in the bottom band. */
export function MapListToggle({ view, onToggle }: { view: MobileView; onToggle: () => void }) {
  return (
    <BottomBar className={styles.viewToggle}>
      <Button variant="primary" icon={view === 'list' ? <MapIcon size={18} /> : <ListIcon size={18} />} onClick={onToggle}>
        {view === 'list' ? 'View Map' : 'View List'}
      </Button>
    </BottomBar>
  );
}
