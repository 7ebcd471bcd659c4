import { describe, expect, it } from 'vitest';
import { participationButton, participationState, PROVIDER_TEXTS, stateLabel } from './participation';

describe('participation states', () => {
  it('maps no participation, pending, active and anything else to the four states', () => {
    expect(participationState(null)).toBe('notContracted');
    expect(participationState('notContracted')).toBe('notContracted');
    expect(participationState('pending')).toBe('pending');
    expect(participationState('active')).toBe('active');
    expect(participationState('declined')).toBe('inactive');
    expect(participationState('stopped')).toBe('inactive');
    expect(participationState('inactive')).toBe('inactive');
    expect(['notContracted', 'pending', 'active', 'inactive'].map((status) => stateLabel(participationState(status)))).toEqual([
      'Not contracted',
      'Pending Approval',
      'Active',
      'Inactive',
    ]);
  });

  it('gives Participate, a disabled Pending Approval, or Stop Participating by state', () => {
    expect(participationButton('notContracted')).toEqual({ label: 'Participate', action: 'participate', disabled: false });
    expect(participationButton('inactive')).toEqual({ label: 'Participate', action: 'participate', disabled: false });
    expect(participationButton('pending')).toEqual({ label: 'Pending Approval', action: null, disabled: true });
    expect(participationButton('active')).toEqual({ label: 'Stop Participating', action: 'stop', disabled: false });
  });

  it('keeps the spec\'s texts exactly, its spelling included', () => {
    expect(PROVIDER_TEXTS.noSolutions).toBe('You are not paricipating in any solution!');
    expect(PROVIDER_TEXTS.noFavorites).toBe('There are no solutions marked as favorites!');
    expect(PROVIDER_TEXTS.selectRateFirst).toBe('Please select rate first');
  });
});
