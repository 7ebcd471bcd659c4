/** Shapes of the solutions and vendor calls. */

export interface CategoryItem {
  entity: 'solution' | 'vendor';
  /** For solutions: 'solution' or 'virtual_network'. */
  type?: string;
  id: number;
  name: string;
  logo: string;
  description: string;
  website: string;
}

export interface MarketCategory {
  id: number;
  name: string;
  slug: string;
  items: CategoryItem[];
}

export interface Vendor {
  id: number;
  companyName: string;
  category: string;
  logo: string;
  favorite: boolean;
  details: { description: string; website: string };
  contact: { firstName: string; lastName: string; email: string; address1: string };
}

/** Money is a decimal string with two places ("75.00"), exact as the server computed it in cents. */
export type Money = string;

/** A rate (rate group) of a solution: US$ per member per month. */
export interface Rate {
  _id: string | number;
  group: string;
  baseRate: Money;
  solution?: number;
}

/** One fee of a transaction (spec 9): TPA and platform are percentages, the facilitator's is flat. */
export interface FeeLine {
  entity: string;
  type: 'percent' | 'flat' | string;
  /** The percentage ("1.50") or the flat amount ("5.00"); absent in the solution's fee list. */
  value?: string;
  amount: Money | string;
}

/** A participation as the solution answers it for the provider's organisation. */
export interface SolutionParticipation {
  id: number;
  status: 'pending' | 'active' | 'declined' | 'stopped' | string;
  date?: string | null;
  provider?: unknown;
  employer?: unknown;
  requestedAt?: string | null;
  decidedAt?: string | null;
  /** When the provider stopped it. */
  stoppedAt?: string | null;
  /** An active participation's change of rate waiting for the facilitator; the rate in force stays meanwhile. */
  requestedRate?: Rate | null;
}

export interface Solution {
  id: number;
  name: string;
  logo: string;
  category: string;
  type?: string;
  website?: string;
  favorite?: boolean;
  /** The contract PDF's URL (public) and the SHA-256 of its bytes. */
  contract?: string;
  contractVersion?: string;
  /** True while a participation is pending or active. */
  contracted?: boolean;
  details: { description: string; definition: string; website: string };
  facilitator: { primaryContact: { firstName: string; lastName: string; email: string }; address1: string };
  participation?: SolutionParticipation | null;
  /** The participation's rate. */
  rate: { _id?: string | number; amount: Money; structure?: string; frequency?: string; rateGroup?: string; totalNet?: Money } | null;
  rates?: Rate[];
  fees?: FeeLine[];
}
