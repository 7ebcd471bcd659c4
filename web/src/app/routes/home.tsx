import { HomePage } from '@/features/home/components/home-page';

/** /home (loaded on demand). */
export const HomeRoute = HomePage;
