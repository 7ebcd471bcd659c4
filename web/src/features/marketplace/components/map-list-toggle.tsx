import { useState } from 'react';
import { ListIcon, MapIcon } from '@/components/icons/icons';
import { BottomBar } from '@/components/ui/bottom-bar';
import { Button } from '@/components/ui/button';
import styles from './marketplace-page.module.css';

type MobileView = 'list' | 'map';

/** Which of the list and the map show: both on wide screens, one at a time on a phone. */
export function useMapListView(isMobile: boolean) {
  const [mobileView, setMobileView] = useState<MobileView>('list');
  return {
    mobileView,
    toggle: () => setMobileView((view) => (view === 'list' ? 'map' : 'list')),
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
