/** Query keys of the account feature. */
export const accountKeys = {
  all: ['account'] as const,
  familyMembers: () => [...accountKeys.all, 'family-members'] as const,
  familyMember: (id: number) => [...accountKeys.all, 'family-member', id] as const,
  plans: () => [...accountKeys.all, 'plans'] as const,
};
