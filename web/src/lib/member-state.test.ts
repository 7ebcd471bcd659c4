import { describe, expect, it } from 'vitest';
import { memberFixture } from '@/test/fixtures';
import { actedOnMember, memberStateFrom } from './member-state';

const family = [
  { id: 22, firstName: 'John', lastName: 'Doe', subscriberRelation: 'Spouse' as const, nextStep: 'complete' as const, locationId: 5, location: { id: 5, name: 'Hudson Family Health', locationName: 'Midtown' }, subscription: { status: 'pending' as const } },
  { id: 23, firstName: 'Emma', lastName: 'Doe', subscriberRelation: 'Dependent' as const, nextStep: 'selectDPC' as const, location: null, subscription: { status: null } },
];

describe('the member acted on', () => {
  it('is the Self subscriber by default', () => {
    const member = memberFixture({ family });
    expect(actedOnMember(member).dependentId).toBeNull();
    expect(memberStateFrom(member)).toEqual({
      dependentId: null,
      name: 'Jane Doe',
      firstName: 'Jane',
      nextStep: 'complete',
      setup: 'complete',
      subscriptionStatus: 'pending',
      locationId: 1,
      clinicName: 'Front Range Direct Primary Care',
      clinicLocationName: null,
      hasFamily: true,
    });
  });

  it('is the selected family member, with their own state', () => {
    expect(memberStateFrom(memberFixture({ family }), 22)).toEqual({
      dependentId: 22,
      name: 'John Doe',
      firstName: 'John',
      nextStep: 'complete',
      setup: null,
      subscriptionStatus: 'pending',
      locationId: 5,
      clinicName: 'Hudson Family Health',
      clinicLocationName: 'Midtown',
      hasFamily: false,
    });
    expect(memberStateFrom(memberFixture({ family }), 23)).toMatchObject({ dependentId: 23, nextStep: 'selectDPC', subscriptionStatus: null, locationId: null, clinicName: null });
  });

  it('ignores a selection that is not on the account', () => {
    expect(memberStateFrom(memberFixture({ family }), 99)?.dependentId).toBeNull();
    expect(memberStateFrom(memberFixture({ family: [] }), 22)?.dependentId).toBeNull();
  });

  it('is the first associated dependent for a member who is not the subscriber', () => {
    const spouse = memberFixture({ subscriberRelation: 'Spouse', associatedDependents: [family[1]!] });
    expect(memberStateFrom(spouse)?.dependentId).toBe(23);
    expect(memberStateFrom(memberFixture({ subscriberRelation: 'Spouse', associatedDependents: [] }))?.dependentId).toBeNull();
  });

  it('tells whether the subscriber has family (the roster or the account), never for a family member', () => {
    expect(memberStateFrom(memberFixture({ family: [] }))?.hasFamily).toBe(false);
    expect(memberStateFrom(memberFixture({ family: [], hasFamily: true }))?.hasFamily).toBe(true);
    expect(memberStateFrom(memberFixture({ family }))?.hasFamily).toBe(true);
    expect(memberStateFrom(memberFixture({ family, hasFamily: true }), 22)?.hasFamily).toBe(false);
    expect(memberStateFrom(memberFixture({ subscriberRelation: 'Spouse', hasFamily: true, associatedDependents: [] }))?.hasFamily).toBe(false);
  });

  it('is null while signed out', () => {
    expect(memberStateFrom(null, 22)).toBeNull();
  });
});
