import { Link } from 'react-router';
import { LogoAvatar } from '@/components/ui/logo-avatar';
import { paths } from '@/config/paths';
import type { SolutionCard as SolutionCardData } from '@/api/providers/types';
import { FavoriteButton } from './favorite-button';
import { StatusChip } from './rate-figures';
import styles from './provider-portal.module.css';

/** A solution card: logo, name (the link to its detail), category, a short description, the status chip and the heart. */
export function SolutionCard({ card }: { card: SolutionCardData }) {
  return (
    <article className={styles.solutionCard} aria-label={card.name}>
      <div className={styles.cardTop}>
        <LogoAvatar name={card.name} logo={card.logo} size={44} />
        <div className={styles.cardTitle}>
          <Link to={paths.providerSolutionDetails.getHref(card.id)} title={card.name}>
            {card.name}
          </Link>
          <span>{card.category}</span>
        </div>
      </div>
      {card.description ? <p className={styles.cardText}>{card.description}</p> : null}
      <div className={styles.cardFoot}>
        <StatusChip status={card.status} />
        {/* The heart sits in the foot so the name gets the card's width. */}
        <FavoriteButton solutionId={card.id} name={card.name} favorite={card.favorite} />
      </div>
    </article>
  );
}
