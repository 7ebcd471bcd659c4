/**
 * Payer and plan choice of the eligibility and insurance forms (accounts spec, section 5):
 * the payer picker shows only with more than one payer, a sole payer is preselected, a payer's
 * sole plan is preselected, and the group id comes from the employer group of that payer.
 */
import type { EmployerGroup, Member, Payer, Plan } from '@/lib/member';

/**
 * The employer's payers with their plans: the member info's `payers` when present, otherwise
 * the plans list grouped by payer (plans without a payer belong to the member's payer).
 */
export function payerOptions(member: Pick<Member, 'payers' | 'payerId'> | null | undefined, plans: Plan[] = []): Payer[] {
  if (member?.payers && member.payers.length > 0) return member.payers;
  const byPayer = new Map<string, Payer>();
  for (const plan of plans) {
    const payerId = plan.payerId ?? member?.payerId ?? '';
    const payer = byPayer.get(payerId) ?? { payerId, payerName: plan.payerName ?? payerId, plans: [] };
    payer.plans.push(plan);
    byPayer.set(payerId, payer);
  }
  return [...byPayer.values()];
}

/** Whether the payer field shows: only with more than one payer. */
export function showsPayerField(payers: Payer[]): boolean {
  return payers.length > 1;
}

export function plansOf(payers: Payer[], payerId: string): Plan[] {
  return payers.find((payer) => payer.payerId === payerId)?.plans ?? [];
}

/** The payer and plan a form starts with: the stored ones if still offered, else the sole payer and its sole plan. */
export function initialPayerAndPlan(payers: Payer[], stored: { payerId?: string | null; planId?: string | null }): { payerId: string; planId: string } {
  const storedPayer = payers.find((payer) => payer.payerId === stored.payerId);
  const payer = storedPayer ?? (payers.length === 1 ? payers[0]! : undefined);
  if (!payer) return { payerId: '', planId: '' };
  const storedPlan = payer.plans.find((plan) => plan.planId === stored.planId);
  const plan = storedPlan ?? (payer.plans.length === 1 ? payer.plans[0]! : undefined);
  return { payerId: payer.payerId, planId: plan?.planId ?? '' };
}

/** A payer change replaces the plans: a sole plan is preselected, otherwise none. */
export function planAfterPayerChange(payers: Payer[], payerId: string): string {
  const plans = plansOf(payers, payerId);
  return plans.length === 1 ? plans[0]!.planId : '';
}

/** The group id: the employer group whose TPA payer matches, else the plan's own group. */
export function groupIdFor(groups: EmployerGroup[] | undefined, payers: Payer[], payerId: string, planId: string): string {
  const group = groups?.find((item) => (item.tpa?.payerId ?? item.payerId) === payerId);
  if (group) return group.groupId;
  return plansOf(payers, payerId).find((plan) => plan.planId === planId)?.groupId ?? '';
}
