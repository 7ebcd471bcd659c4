/** Every route of the app, with helpers that build links so no page spells a URL by hand. */

function withQuery(path: string, query: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export const paths = {
  root: { path: '/' },
  notFound: { path: '/404' },
  home: { path: '/home' },
  login: { path: '/login' },
  register: { path: '/register' },
  verify: { path: '/verify' },
  forgotPassword: { path: '/forgot-password' },
  expired: { path: '/expired' },
  resetPassword: { path: '/auth/reset-password' },
  confirmPlanInformation: { path: '/confirm-plan-information' },
  confirmInfo: { path: '/confirm-info' },
  addFamilyMember: { path: '/add-family-member' },
  membership: { path: '/membership' },
  account: { path: '/account' },
  accountDetails: { path: '/account/details' },
  editSubscriber: { path: '/account/edit-subscriber' },
  editDependent: { path: '/account/edit-dependent/:id', getHref: (id: number | string) => `/account/edit-dependent/${id}` },
  editContact: { path: '/account/edit-contact' },
  welcome: { path: '/welcome' },
  terms: { path: '/terms' },
  privacy: { path: '/privacy' },
  cookies: { path: '/cookies' },
  accountAlert: { path: '/account/alert/:type', getHref: (type: 'add' | 'update' | 'verification') => `/account/alert/${type}` },
  accountPersonal: { path: '/account/personal' },
  accountPersonalEdit: { path: '/account/personal/edit' },
  familyMembers: { path: '/account/family-members' },
  familyMembersMenu: { path: '/account/family-members/menu' },
  familyMember: { path: '/account/family-members/family-member/:id', getHref: (id: number | string) => `/account/family-members/family-member/${id}` },
  familyMemberAdd: { path: '/account/family-members/add' },
  familyMemberEdit: { path: '/account/family-members/edit/:id', getHref: (id: number | string) => `/account/family-members/edit/${id}` },
  accountSettings: { path: '/account/settings' },
  accountChangePassword: { path: '/account/settings/change-password' },
  findCare: { path: '/find-care' },
  findCareSearch: { path: '/find-care/search' },
  findCareFilters: { path: '/find-care/search/filters' },
  contactUs: { path: '/contact-us/index' },
  auth: { path: '/auth' },
  authIndex: { path: '/auth/index' },
  authAlert: { path: '/auth/alert/:type', getHref: (type: 'loading' | 'verification' | 'updated-info' | 'error') => `/auth/alert/${type}` },
  confirmEmailPassword: { path: '/auth/confirm-email-password' },
  authChangePassword: { path: '/auth/change-password' },
  personalInfo: { path: '/auth/personal-info' },
  accountConfirm: { path: '/auth/confirm' },
  marketplace: {
    path: '/marketplace',
    getHref: (query: { company?: string; location?: string; selectProvider?: string } = {}) =>
      withQuery('/marketplace', query),
  },
  categoryListing: {
    path: '/marketplace/all/:category',
    getHref: (category: string) => `/marketplace/all/${encodeURIComponent(category)}`,
  },
  clinicProfile: {
    path: '/marketplace/provider/details/:id',
    getHref: (organisationId: number | string, locationId?: number | string) =>
      withQuery(`/marketplace/provider/details/${organisationId}`, { location: locationId }),
  },
  clinicianProfile: {
    path: '/marketplace/clinician/details/:id',
    getHref: (clinicianId: number | string) => `/marketplace/clinician/details/${clinicianId}`,
  },
  vendorProfile: {
    path: '/marketplace/vendor/details/:id',
    getHref: (vendorId: number | string) => `/marketplace/vendor/details/${vendorId}`,
  },
  solutionDetails: {
    path: '/marketplace/solutions/details/:id',
    getHref: (solutionId: number | string) => `/marketplace/solutions/details/${solutionId}`,
  },
  marketItemDetails: {
    path: '/marketplace/details/:id',
    getHref: (solutionId: number | string) => `/marketplace/details/${solutionId}`,
  },
  /** The DPC provider's pages (issue 11, docs/provider-contract.md). */
  providers: { path: '/dpc-providers' },
  providerSolutions: { path: '/dpc-providers/solutions' },
  providerSolutionDetails: {
    path: '/dpc-providers/solutions/details/:id',
    getHref: (solutionId: number | string) => `/dpc-providers/solutions/details/${solutionId}`,
  },
  providerRates: { path: '/dpc-providers/rates' },
  /** Where the provider account is signed in (issue 24): the member Settings' sessions card. */
  providerSettings: { path: '/dpc-providers/settings' },
  /** The organisation's own listings, kept true by the clinic (issue 23, docs/listings-contract.md). */
  providerListings: { path: '/dpc-providers/listings' },
  /** The clinic panel (issue 22, docs/clinic-panel-contract.md). */
  providerMembers: { path: '/dpc-providers/members' },
  providerMember: {
    path: '/dpc-providers/members/:id',
    getHref: (memberId: number | string) => `/dpc-providers/members/${memberId}`,
  },
  /** The facilitator's emailed link: public, no login. */
  participationReview: {
    path: '/dpc-providers/participations/review',
    getHref: (token: string) => withQuery('/dpc-providers/participations/review', { token }),
  },
} as const;
