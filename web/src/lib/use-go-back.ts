import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';

/**
 * Goes back `steps` pages in the app's history, or to the marketplace when there are not that
 * many (the page was opened directly).
 */
export function useGoBack(steps = 1): () => void {
  const navigate = useNavigate();
  return () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index >= steps) navigate(-steps);
    else navigate(paths.marketplace.path);
  };
}
