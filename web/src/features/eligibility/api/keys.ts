/** Query keys of the eligibility feature. */
export const eligibilityKeys = {
  all: ['eligibility'] as const,
  plans: () => [...eligibilityKeys.all, 'plans'] as const,
  provider: (providerId: number, locationId: number | null) => [...eligibilityKeys.all, 'provider', providerId, locationId] as const,
  postEnrollment: (providerId: number) => [...eligibilityKeys.all, 'post-enrollment', providerId] as const,
  familyMember: (id: number) => [...eligibilityKeys.all, 'family-member', id] as const,
  account: () => [...eligibilityKeys.all, 'account'] as const,
};
