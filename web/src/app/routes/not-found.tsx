import { Button } from '@/components/ui/button';
import { useGoBack } from '@/lib/use-go-back';
import styles from './route-pages.module.css';

/** /404: 'Page Not Found' with a Go Back button. */
export function NotFoundRoute() {
  const goBack = useGoBack(2);
  return (
    <div className={styles.center}>
      <p className={styles.code}>404</p>
      <h1>Page Not Found</h1>
      <p className={styles.muted}>The page you are looking for does not exist or has moved.</p>
      <Button onClick={goBack}>Go Back</Button>
    </div>
  );
}
