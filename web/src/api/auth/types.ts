/** Shapes of the sign-in, sign-up and password calls (spec section 7, docs/accounts-contract.md). */
import type { NextStep } from '@/lib/member';

export interface FilterMarket {
  company?: string | null;
  location?: string | null;
}

/** POST /member/app/login and /login/magic/link. */
export interface LoginResponse {
  accessToken: string;
  /** 'dpc-member', or 'dpc-provider' for a provider account (which has no nextStep). */
  type?: 'dpc-member' | 'dpc-provider' | string;
  filterMarket?: FilterMarket | null;
  nextStep: NextStep;
  /** A provider's organisation. */
  organisationId?: number;
  organisationName?: string;
}

export interface SignupRequest {
  email: string;
  employerId: number | string | null;
  /** Kept when the employer is unknown (no id). */
  companyName?: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  /** The terms checkbox (the server refuses false). */
  terms_and_conditions?: boolean;
  /** The Terms of Use version the page showed (GET /legal/terms); kept with the account. */
  termsVersion?: string;
  /** A waitlist registration for an employer that does not offer the benefit yet. */
  notify?: boolean;
  providerId?: number;
  locationId?: number;
}

export interface SignupResponse {
  accessToken?: string | null;
  accountExists?: boolean;
  id?: number;
  nextStep?: NextStep;
  message?: string;
}

export interface MessageResponse {
  message?: string;
}

/** POST /member/app/validate/token: a fresh token for the password call, and whether a password exists. */
export interface ValidateTokenResponse {
  newToken: string;
  password?: boolean | string | null;
  email?: string;
  /** What the link was sent for; only a verification link of an account with a password skips the form. */
  purpose?: 'verify_email' | 'password_reset' | string;
}

/** POST /member/app/validate/email: valid false means the email is taken. */
export interface ValidateEmailResponse {
  valid: boolean;
  message?: string;
  reason?: 'email' | 'company' | string;
}

/** GET /member/app/verify?email. */
export interface VerifyResponse {
  exist: boolean;
  verified: boolean;
}
