import { useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ChevronLeftIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { LogoAvatar } from '@/components/ui/logo-avatar';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { truncate } from '@/lib/format';
import { useMarketCategories } from '@/api/solutions/get-market-categories';
import type { CategoryItem } from '@/api/solutions/types';
import styles from './solutions.module.css';

/** The entity label shown on each item. */
export function itemTypeLabel(item: CategoryItem): string {
  if (item.entity === 'vendor') return 'Point Solution Vendor';
  return item.type === 'virtual_network' ? 'Virtual Network' : 'Solution';
}
const ROW_HEIGHT = 96;

/** Matches the search text against an item's name, description, website and type. */
export function matchesCategorySearch(item: CategoryItem, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [item.name, item.description, item.website, itemTypeLabel(item)].some((field) => field?.toLowerCase().includes(needle));
}

function itemHref(item: CategoryItem): string {
  return item.entity === 'vendor' ? paths.vendorProfile.getHref(item.id) : paths.marketItemDetails.getHref(item.id);
}

/** /marketplace/all/{category}: the category's solutions and vendors, searchable. */
export function CategoryListing({ category }: { category: string }) {
  const categories = useMarketCategories();
  const [search, setSearch] = useState('');
  const found = categories.data?.categories.find((entry) => entry.slug === category || String(entry.id) === category);
  const items = useMemo(() => (found?.items ?? []).filter((item) => matchesCategorySearch(item, search)), [found, search]);

  return (
    <div className={styles.page}>
      <Link to={paths.marketplace.path} className={styles.back}>
        <ChevronLeftIcon size={18} /> Back to Solutions
      </Link>
      {categories.isPending ? <Spinner label="Loading solutions" /> : null}
      {categories.isError ? <Alert tone="error" title="Something went wrong. Please try again later." /> : null}
      {categories.data && !found ? <Alert tone="warning" title="This category does not exist." /> : null}
      {found ? (
        <>
          <h1>{found.name}</h1>
          <input
            type="search"
            className={styles.search}
            placeholder="Search by name, address or type"
            aria-label="Search solutions"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
          {items.length === 0 ? <p className={styles.muted}>No results found!</p> : <ItemList items={items} />}
        </>
      ) : null}
    </div>
  );
}

/** A virtualised list, since a category can hold many vendors. */
function ItemList({ items }: { items: CategoryItem[] }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // Sizes are remembered per item, not per position, so filtering does not reuse a wrong height.
    getItemKey: (index) => `${items[index]!.entity}-${items[index]!.id}`,
    overscan: 5,
    initialRect: { width: 800, height: 600 },
  });
  return (
    <div ref={scrollRef} className={styles.scroller}>
      <ul style={{ height: virtualizer.getTotalSize(), position: 'relative', margin: 0, padding: 0, listStyle: 'none' }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index]!;
          return (
            <li
              key={`${item.entity}-${item.id}`}
              data-index={row.index}
              ref={virtualizer.measureElement}
              className={styles.row}
              style={{ transform: `translateY(${row.start}px)` }}
            >
              <Link className={styles.item} to={itemHref(item)}>
                <LogoAvatar name={item.name} logo={item.logo} size={48} />
                <div>
                  <strong>{item.name}</strong>
                  <span className={`${styles.line} ${styles.type}`}>{itemTypeLabel(item)}</span>
                  <span className={styles.line}>{truncate(item.description, 120)}</span>
                </div>
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
