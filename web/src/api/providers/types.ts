/** Shapes of the provider-side calls (docs/provider-contract.md). */
import type { FeeLine, Money, Rate } from '@/api/solutions/types';

/** The status a solution card carries for the provider's organisation. */
export type CardStatus = 'notContracted' | 'pending' | 'active' | 'inactive';

/** A solution card of GET /member/app/solutions. */
export interface SolutionCard {
  id: number;
  name: string;
  type?: string;
  category: string;
  logo: string | null;
  description?: string;
  favorite: boolean;
  contracted: boolean;
  status: CardStatus | string;
}

/** GET /member/app/solutions: My Solutions, My Favorites and every solution of the marketplace. */
export interface ProviderSolutions {
  solutions: SolutionCard[];
  favorites: SolutionCard[];
  marketplace: SolutionCard[];
}

/** GET /dpcproviders/me: who the signed-in provider is. */
export interface ProviderMe {
  id: number;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  organisation: { id: number; name: string };
}

/** One period of a rate calculation: the base rate, the fees' sum, what the provider nets, and each fee. */
export interface CalculationPeriod {
  baseRate: Money;
  fees: Money;
  total: Money;
  breakdown: FeeLine[];
}

/** POST /dpcproviders/rate/calculate. */
export interface RateCalculation {
  solution: number;
  rate: string | number;
  monthly: CalculationPeriod;
  yearly: CalculationPeriod;
}

/** One row of GET /dpcproviders/participations (newest first). */
export interface Participation {
  id: number;
  status: string;
  solution: { id: number; name: string };
  rate: Rate;
  /** An active participation's change of rate waiting for the facilitator (`rate` stays in force). */
  requestedRate?: Rate | null;
  monthly: CalculationPeriod;
  yearly: CalculationPeriod;
  requestedAt: string | null;
  decidedAt: string | null;
}

/** GET /dpcproviders/participations/review?token=: what the facilitator is asked to decide. */
export interface ParticipationReview {
  status: string;
  solution: { id: number; name: string };
  organisation: { id: number; name: string };
  /** Null when the account that asked no longer exists. */
  requestedBy: { firstName?: string | null; lastName?: string | null; email: string } | null;
  /** Where the clinic asks to be written to, and the decision is emailed (null: asked before it was asked). */
  contactEmail?: string | null;
  rate: Rate;
  /** Set when the request is an active participation's change of rate: from `rate` to this one. */
  requestedRate?: Rate | null;
  /** The requested rate's figures (a change of rate only). */
  requestedMonthly?: CalculationPeriod;
  requestedYearly?: CalculationPeriod;
  monthly: CalculationPeriod;
  yearly: CalculationPeriod;
  requestedAt: string | null;
}

export type ReviewDecision = 'approve' | 'decline';
