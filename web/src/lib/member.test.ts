import { describe, expect, it } from 'vitest';
import { membershipCardStatus } from './member';

describe('membershipCardStatus', () => {
  it("says Pending, Active and Inactive, and 'Error' in gray for anything else, no status included (spec 4)", () => {
    expect(membershipCardStatus('pending')).toEqual({ label: 'Pending', tone: 'pending' });
    expect(membershipCardStatus('active')).toEqual({ label: 'Active', tone: 'active' });
    expect(membershipCardStatus('inactive')).toEqual({ label: 'Inactive', tone: 'inactive' });
    expect(membershipCardStatus(null)).toEqual({ label: 'Error', tone: 'none' });
    expect(membershipCardStatus('declined')).toEqual({ label: 'Error', tone: 'none' });
  });
});
