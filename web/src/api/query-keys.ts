/**
 * The one query-key factory. Every cached call reads its key here, and every mutation
 * invalidates or patches through the same keys, so a change made on one screen (a favourite on a
 * profile, a saved family member) reaches every other screen that shows it.
 */
import type { PanelParams } from './clinic-panel/types';
import type { Bounds, LatLng, PinFilters, SearchKeyParams } from './market/types';

const member = ['member'] as const;
const family = ['family'] as const;
const plans = ['plans'] as const;
const auth = ['auth'] as const;
const employers = ['employers'] as const;
const market = ['market'] as const;
const profiles = ['profiles'] as const;
const enrolment = ['enrolment'] as const;
const solutions = ['solutions'] as const;
const legal = ['legal'] as const;
const sessions = ['sessions'] as const;

export const queryKeys = {
  legal: {
    all: legal,
    document: (document: string) => [...legal, document] as const,
  },
  member: {
    all: member,
    info: () => [...member, 'info'] as const,
  },
  family: {
    all: family,
    list: () => [...family, 'list'] as const,
    detail: (id: number) => [...family, 'detail', id] as const,
  },
  sessions: {
    all: sessions,
    list: () => [...sessions, 'list'] as const,
  },
  plans: {
    all: plans,
    list: () => [...plans, 'list'] as const,
  },
  auth: {
    all: auth,
    confirmAccount: (token: string | null) => [...auth, 'confirm-account', token] as const,
    linkToken: (token: string) => [...auth, 'link-token', token] as const,
    verify: (email: string) => [...auth, 'verify', email] as const,
  },
  employers: {
    all: employers,
    search: (search: string) => [...employers, 'search', search] as const,
  },
  market: {
    all: market,
    /** Every search page; `search(params)` is one of them. */
    searches: () => [...market, 'search'] as const,
    search: (params: SearchKeyParams) => [...market, 'search', params] as const,
    /** Every pins box; `pins(bounds, filters)` is one of them. */
    allPins: () => [...market, 'pins'] as const,
    pins: (bounds: Bounds, filters: PinFilters) => [...market, 'pins', bounds, filters] as const,
    areaPins: (bounds: Bounds, zoom: number, filters: PinFilters) => [...market, 'area-pins', bounds, zoom, filters] as const,
    allPreviews: () => [...market, 'preview'] as const,
    preview: (locationId: number) => [...market, 'preview', locationId] as const,
    credentials: (alias: string | null) => [...market, 'credentials', alias] as const,
    languages: (alias: string | null) => [...market, 'languages', alias] as const,
    listingCodes: () => [...market, 'listing-codes'] as const,
    specialities: (alias: string | null) => [...market, 'specialities', alias] as const,
    organizations: (alias: string | null, search: string) => [...market, 'organizations', alias, search] as const,
    companyAlias: (alias: string) => [...market, 'company-alias', alias] as const,
    autocomplete: (input: string) => [...market, 'autocomplete', input] as const,
    /** An address's place (a linked or typed search, geocoded once). */
    geocode: (address: string) => [...market, 'geocode', address] as const,
    /** Find Care: a ZIP code geocoded, then searched around (its own filters and page size). */
    nearZip: (zip: string, filters: unknown, company: string | null) => [...market, 'near-zip', zip, filters, company] as const,
  },
  profiles: {
    all: profiles,
    clinic: (organisationId: number, locationId: number | null, dependentId: number | null = null) => [...profiles, 'clinic', organisationId, locationId, dependentId] as const,
    clinician: (clinicianId: number, origin: LatLng | null) => [...profiles, 'clinician', clinicianId, origin] as const,
  },
  enrolment: {
    all: enrolment,
    postEnrollment: (providerId: number, locationId: number | null) => [...enrolment, 'post-enrollment', providerId, locationId] as const,
  },
  solutions: {
    all: solutions,
    categories: () => [...solutions, 'categories'] as const,
    vendor: (id: number) => [...solutions, 'vendor', id] as const,
    solution: (id: number) => [...solutions, 'solution', id] as const,
    /** The provider's carousels and the marketplace (GET /member/app/solutions). */
    providerCards: () => [...solutions, 'provider-cards'] as const,
    rates: (solutionId: number | null) => [...solutions, 'rates', solutionId] as const,
    calculation: (solutionId: number, rateId: string | number) => [...solutions, 'calculation', solutionId, rateId] as const,
    participations: () => [...solutions, 'participations'] as const,
  },
  clinicPanel: {
    all: ['clinic-panel'] as const,
    /** One tab of the organisation's members (GET /dpcproviders/members). */
    members: (params: PanelParams) => ['clinic-panel', 'members', params] as const,
    member: (memberId: number) => ['clinic-panel', 'member', memberId] as const,
  },
  providers: {
    all: ['providers'] as const,
    me: () => ['providers', 'me'] as const,
    review: (token: string) => ['providers', 'review', token] as const,
    /** The organisation's own listings (GET /dpcproviders/listings). */
    listings: () => ['providers', 'listings'] as const,
  },
};
