import { firstOpenStep, stepsDone } from '@/lib/enrolment-steps';
import { portalLink, type Member } from '@/lib/member';

/** The swiper shows only with more than 3 cards; 1020 px is its wide breakpoint (section 9). */
export const SWIPER_MIN_CARDS = 4;
export const SWIPER_WIDE_PX = 1020;

/**
 * Whether the cards are a swiper and which card starts centred: the second when there are 4 or
 * more cards and the window is 1020 px or wider, otherwise the first.
 */
export function swiperLayout(cardCount: number, windowWidth: number): { swiper: boolean; initialIndex: number } {
  const swiper = cardCount >= SWIPER_MIN_CARDS;
  const initialIndex = cardCount >= SWIPER_MIN_CARDS && windowWidth >= SWIPER_WIDE_PX ? 1 : 0;
  return { swiper, initialIndex };
}

export type MembershipAction = { kind: 'activate'; link: string } | { kind: 'call'; phone: string } | { kind: 'wait' };

/** The action button: the provider portal, else a call to the clinic, else a note that the clinic will call. */
export function membershipAction(member: Pick<Member, 'providerPortal' | 'location'>): MembershipAction {
  const link = portalLink(member.providerPortal);
  if (link) return { kind: 'activate', link };
  const phone = member.location?.phone?.trim();
  if (phone) return { kind: 'call', phone };
  return { kind: 'wait' };
}

/**
 * The step indicator: a provider chosen before sign-up puts Select Provider first; otherwise the
 * account comes first and the optional Add Family Member step shows when the member chose to add
 * family ('yes') or there is more than one card.
 */
export function membershipSteps(providerChosenFirst: boolean, addFamily: 'yes' | 'no' | null, cardCount: number): string[] {
  if (providerChosenFirst) return ['Select Provider', 'Create account', 'Verify your eligibility', 'Schedule your first visit'];
  const steps = ['Create account', 'Select Provider', 'Verify your eligibility'];
  if (addFamily === 'yes' || cardCount > 1) steps.push('Add Family Member');
  steps.push('Activate membership');
  return steps;
}

/** What the step ticks read from the member info. */
export type ProgressFacts = Pick<Member, 'locationId' | 'location' | 'eligibility' | 'subscription'>;

/**
 * Which steps are true for this member (a step is ticked only then) and the step to do next: the
 * account once it exists (its email may still wait for its link), the provider once one is
 * chosen, eligibility once confirmed, family once there is more than one card, the last step once
 * the membership is active.
 */
export function membershipProgress(steps: string[], member: ProgressFacts, cardCount: number): { done: boolean[]; current: number } {
  const done = stepsDone(steps, {
    accountCreated: true,
    providerChosen: member.locationId != null || member.location != null,
    eligibilityConfirmed: member.eligibility?.status === 'active',
    familyAdded: cardCount > 1,
    membershipActive: member.subscription?.status === 'active',
  });
  return { done, current: firstOpenStep(done) };
}

/** The back arrow's target: /home or /account/details when stored as the redirect, otherwise /marketplace. */
export function backTarget(redirect: string | null): string {
  return redirect === '/home' || redirect === '/account/details' ? redirect : '/marketplace';
}
