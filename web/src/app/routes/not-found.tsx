import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import styles from './route-pages.module.css';

/** /404: 'Page Not Found' with a Go Back button. */
export function NotFoundRoute() {
  const navigate = useNavigate();
  return (
    <div className={styles.center}>
      <p className={styles.code}>404</p>
      <h1>Page Not Found</h1>
      <p className={styles.muted}>The page you are looking for does not exist or has moved.</p>
      <Button
        onClick={() => {
          const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
          if (index > 1) navigate(-2);
          else navigate(paths.marketplace.path);
        }}
      >
        Go Back
      </Button>
    </div>
  );
}
