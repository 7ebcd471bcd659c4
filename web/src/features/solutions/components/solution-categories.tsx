import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useMarketCategories } from '@/api/solutions/get-market-categories';
import styles from './solutions.module.css';

/** The solution categories, shown on the marketplace below the results. */
export function SolutionCategories() {
  const categories = useMarketCategories();
  const list = categories.data?.categories ?? [];
  if (list.length === 0) return null;
  return (
    <section className={styles.strip} aria-labelledby="solutions-title">
      <h2 id="solutions-title">More solutions for your health</h2>
      <ul className={styles.categoryList}>
        {list.map((category) => (
          <li key={category.id}>
            <Link className={styles.category} to={paths.categoryListing.getHref(category.slug)}>
              <strong>{category.name}</strong>
              <span className={styles.line}>
                {category.items.length} {category.items.length === 1 ? 'option' : 'options'}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
