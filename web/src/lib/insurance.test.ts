import { describe, expect, it } from 'vitest';
import type { Payer } from '@/lib/member';
import { groupIdFor, initialPayerAndPlan, payerOptions, planAfterPayerChange, showsPayerField } from './insurance';

const single: Payer[] = [{ payerId: '60054', payerName: 'Cascade', plans: [{ planId: 'PLN-1001', name: 'Gold', groupId: 'G1' }] }];
const several: Payer[] = [
  { payerId: '60054', payerName: 'Cascade', plans: [{ planId: 'PLN-1001', name: 'Gold', groupId: 'G1' }] },
  {
    payerId: '70001',
    payerName: 'Summit',
    plans: [
      { planId: 'PLN-2001', name: 'Silver', groupId: 'G2' },
      { planId: 'PLN-2002', name: 'Bronze', groupId: 'G3' },
    ],
  },
];

describe('payer and plan choice', () => {
  it('hides the payer field for one payer and preselects it with its sole plan', () => {
    expect(showsPayerField(single)).toBe(false);
    expect(initialPayerAndPlan(single, {})).toEqual({ payerId: '60054', planId: 'PLN-1001' });
  });

  it('shows the payer field for several payers and preselects nothing', () => {
    expect(showsPayerField(several)).toBe(true);
    expect(initialPayerAndPlan(several, {})).toEqual({ payerId: '', planId: '' });
    expect(initialPayerAndPlan(several, { payerId: '70001', planId: 'PLN-2002' })).toEqual({ payerId: '70001', planId: 'PLN-2002' });
  });

  it('replaces the plans on a payer change and preselects a sole plan', () => {
    expect(planAfterPayerChange(several, '60054')).toBe('PLN-1001');
    expect(planAfterPayerChange(several, '70001')).toBe('');
  });

  it('takes the group id from the employer group whose TPA payer matches', () => {
    expect(groupIdFor([{ groupId: '1000011', tpa: { payerId: '70001' } }], several, '70001', 'PLN-2001')).toBe('1000011');
    expect(groupIdFor([{ groupId: '1000011', tpa: { payerId: '60054' } }], several, '70001', 'PLN-2001')).toBe('G2');
  });

  it('groups a flat plans list by payer when the member info has no payers', () => {
    const payers = payerOptions({ payerId: '60054' }, [
      { planId: 'A', name: 'A' },
      { planId: 'B', name: 'B', payerId: '70001', payerName: 'Summit' },
    ]);
    expect(payers.map((payer) => [payer.payerId, payer.plans.map((plan) => plan.planId)])).toEqual([
      ['60054', ['A']],
      ['70001', ['B']],
    ]);
  });
});
