import { accountStatus, planLabel, type Member } from '@/lib/member';
import { DetailList } from './card';
import { StatusDot } from './status-dot';

/**
 * The member's insurance: member ID, plan, payer, eligibility status, employer and relationship.
 * `titleCase` writes the two longer labels in title case (Home) rather than sentence case.
 */
export function InsuranceDetails({ member, titleCase = false }: { member: Member; titleCase?: boolean }) {
  const eligibility = accountStatus(member.eligibility?.status);
  return (
    <DetailList
      columns={2}
      items={[
        { label: 'Member ID', value: member.memberId },
        { label: 'Plan', value: planLabel(member) },
        { label: 'Payer ID', value: member.payerId },
        { label: titleCase ? 'Plan Eligibility Status' : 'Plan eligibility status', value: <StatusDot label={eligibility.label} tone={eligibility.tone} /> },
        { label: 'Employer', value: member.companyName },
        { label: titleCase ? 'Relationship to Subscriber' : 'Relationship to subscriber', value: member.subscriberRelation },
      ]}
    />
  );
}
