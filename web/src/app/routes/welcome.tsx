import { Navigate } from 'react-router';
import { paths } from '@/config/paths';
import { useSignedIn } from '@/lib/session';
import { MarketplaceRoute } from './marketplace';

/** The welcome page (WelcomePage): the marketplace's intro for visitors; signed-in members go to /marketplace. */
export function WelcomeRoute() {
  const signedIn = useSignedIn();
  if (signedIn) return <Navigate to={paths.marketplace.path} replace />;
  return <MarketplaceRoute />;
}
