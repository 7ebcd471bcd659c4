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

export interface Solution {
  id: number;
  name: string;
  logo: string;
  category: string;
  favorite?: boolean;
  details: { description: string; definition: string; website: string };
  facilitator: { primaryContact: { firstName: string; lastName: string; email: string }; address1: string };
  rate: { amount: number; structure?: string; frequency?: string; rateGroup?: string; totalNet?: number } | null;
}
