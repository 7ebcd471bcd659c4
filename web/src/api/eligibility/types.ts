/** Shapes of the eligibility calls (spec section 7, docs/accounts-contract.md). */
import type { NextStep, Relation } from '@/lib/member';

export interface SubscriberInfo {
  firstName: string;
  lastName: string;
  dob: string;
  gender: string;
  memberId: string;
}

/** A person and their plan, as the confirm/info calls (the member's and a family member's) check them. */
export interface InsuredPerson extends SubscriberInfo {
  planId: string;
  payerId: string;
  groupId: string;
  phone: string;
  subscriberRelation: Relation;
}

/** POST /member/app/confirm/info body. */
export interface ConfirmInfoRequest extends InsuredPerson {
  subscriberMemberId?: string;
  employerId: number | string | null;
  subscriber?: SubscriberInfo;
}

export interface ConfirmInfoResponse {
  newAccessToken?: string | null;
  nextStep: NextStep;
  hasFamily?: boolean;
  providerId?: number | null;
  locationId?: number | null;
  filterMarket?: { company?: string | null; location?: string | null } | null;
  eligibility?: { code?: number; status?: string | null; err?: { chcDown?: boolean } | null } | null;
  /** The clinic chosen before sign-up stopped accepting new patients meanwhile: no enrolment was made there. */
  notEnrolled?: { code: string; message: string; location: { id: number; providerId: number } } | null;
}

/** The error body of confirm/info: the message, and on 500 whether the roster check is down. */
export interface ConfirmInfoError {
  message?: string;
  code?: string;
  eligibility?: { code?: number; err?: { chcDown?: boolean } | null } | null;
}

/** GET /member/app/market/provider/{id}?locationId=: the fields the provider card shows. */
export interface ProviderCard {
  id: number;
  locationId?: number;
  companyName: string;
  locationName?: string;
  logo?: string | null;
  contact?: { address1?: string; city?: string; state?: string; zipCode?: string; phone?: string } | null;
}
