/** Query keys of the auth feature. */
export const authKeys = {
  all: ['auth'] as const,
  employers: (search: string) => [...authKeys.all, 'employers', search] as const,
  token: (token: string) => [...authKeys.all, 'token', token] as const,
  verify: (email: string) => [...authKeys.all, 'verify', email] as const,
};
