/**
 * Full page loads (Sign Out, and the spec's "go to /confirm-plan-information and reload"): the
 * page is fetched again so every cached answer is read afresh. An object, so tests can replace it.
 */
export const hardNavigation = {
  assign(path: string): void {
    window.location.assign(path);
  },
};
