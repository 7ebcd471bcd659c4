import { useId, useRef } from 'react';
import { ChevronLeftIcon, ChevronRightIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import type { SolutionCard as SolutionCardData } from '@/api/providers/types';
import { useProviderSolutions } from '@/api/providers/get-provider-solutions';
import { PROVIDER_TEXTS } from '../utils/participation';
import { SolutionCard } from './solution-card';
import styles from './provider-portal.module.css';

/** /dpc-providers/solutions: My Solutions and My Favorites carousels, then every solution of the marketplace. */
export function ProviderSolutionsPage() {
  const solutions = useProviderSolutions();
  if (solutions.isPending) return <Spinner label="Loading solutions" />;
  if (solutions.isError) {
    return (
      <div className={styles.page}>
        <Alert tone="error" title="Oops. Something went wrong">
          We could not load your solutions. Please reload the page.
        </Alert>
      </div>
    );
  }
  const { solutions: mine, favorites, marketplace } = solutions.data;
  return (
    <div className={styles.page}>
      <Carousel title="My Solutions" cards={mine} empty={PROVIDER_TEXTS.noSolutions} />
      <Carousel title="My Favorites" cards={favorites} empty={PROVIDER_TEXTS.noFavorites} />
      <section className={styles.section} aria-labelledby="all-solutions">
        <div className={styles.sectionHead}>
          <h2 id="all-solutions">All Solutions</h2>
          <span className={styles.muted}>{marketplace.length === 1 ? '1 solution' : `${marketplace.length} solutions`}</span>
        </div>
        {marketplace.length === 0 ? (
          <p className={styles.empty}>There are no solutions in the marketplace yet.</p>
        ) : (
          <ul className={styles.grid}>
            {marketplace.map((card) => (
              <li key={card.id}>
                <SolutionCard card={card} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** A row of cards that scrolls sideways (swipe, or the arrows on wide screens); the exact empty text when there are none. */
function Carousel({ title, cards, empty }: { title: string; cards: SolutionCardData[]; empty: string }) {
  const headingId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const scroll = (direction: 1 | -1) => {
    const list = listRef.current;
    if (list && typeof list.scrollBy === 'function') list.scrollBy({ left: direction * list.clientWidth * 0.9, behavior: 'smooth' });
  };
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <div className={styles.sectionHead}>
        <h2 id={headingId}>{title}</h2>
        {cards.length > 1 ? (
          <div className={`${styles.scrollButtons} ${styles.desktopOnly}`}>
            <button type="button" className={styles.arrow} aria-label={`Scroll ${title} back`} onClick={() => scroll(-1)}>
              <ChevronLeftIcon />
            </button>
            <button type="button" className={styles.arrow} aria-label={`Scroll ${title} forward`} onClick={() => scroll(1)}>
              <ChevronRightIcon />
            </button>
          </div>
        ) : null}
      </div>
      {cards.length === 0 ? (
        <p className={styles.empty}>{empty}</p>
      ) : (
        <ul ref={listRef} className={styles.carousel} aria-label={title}>
          {cards.map((card) => (
            <li key={card.id}>
              <SolutionCard card={card} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
