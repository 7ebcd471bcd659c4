import { paths } from '@/config/paths';
import type { LoginResponse } from '@/api/auth/types';

/**
 * Where a member goes after signing in (spec 4, "Login next step"): confirmPlan to the
 * eligibility form, selectDPC to the marketplace filtered by the answer's company and location,
 * complete to Home. A protected page the guard sent here from comes first. A DPC provider goes to
 * /dpc-providers/solutions.
 */
export function afterLoginPath(answer: Pick<LoginResponse, 'nextStep' | 'filterMarket' | 'type'>, from?: string | null): string {
  // A DPC provider (docs/provider-contract.md) goes to their solutions, or back to the provider page that sent them here.
  if (answer.type === 'dpc-provider') return from?.startsWith(paths.providers.path) ? from : paths.providerSolutions.path;
  if (answer.nextStep === 'confirmPlan') return paths.confirmPlanInformation.path;
  if (from && from !== paths.login.path) return from;
  if (answer.nextStep === 'selectDPC') {
    return paths.marketplace.getHref({
      company: answer.filterMarket?.company ?? undefined,
      location: answer.filterMarket?.location ?? undefined,
    });
  }
  return paths.home.path;
}
