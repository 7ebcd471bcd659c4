import { portalLink, type Member } from '@/lib/member';

export type HomeAction = 'select-provider' | 'update-provider' | 'confirm-eligibility' | 'provider-portal';

/**
 * The Home buttons (marketplace spec, /home): Select Provider when nextStep is selectDPC, Update
 * My Provider once a provider is chosen, Confirm Eligibility when nextStep is confirmPlan, and the
 * provider member portal when nextStep is complete and a portal link exists.
 */
export function homeActions(member: Pick<Member, 'nextStep' | 'providerId' | 'locationId' | 'providerPortal'>): HomeAction[] {
  const actions: HomeAction[] = [];
  if (member.nextStep === 'selectDPC') actions.push('select-provider');
  if (member.nextStep !== 'selectDPC' && (member.providerId || member.locationId)) actions.push('update-provider');
  if (member.nextStep === 'confirmPlan') actions.push('confirm-eligibility');
  if (member.nextStep === 'complete' && portalLink(member.providerPortal)) actions.push('provider-portal');
  return actions;
}
