import { useId } from 'react';
import { fullName, useMemberInfo, type Member } from '@/lib/member';
import { useSelectedDependentId } from '@/lib/member-state';
import { selectedDependent } from '@/lib/storage';
import styles from './enrolment.module.css';

export interface PickerOption {
  /** Null: the subscriber. */
  dependentId: number | null;
  label: string;
}

/** The subscriber and each family member, with their provider or 'Needs a provider'. */
export function pickerOptions(member: Member): PickerOption[] {
  const own = { dependentId: null, label: `${fullName(member)} (you) — ${member.location?.name ?? 'Needs a provider'}` };
  const family = (member.family ?? [])
    .filter((person) => person.id !== member.id)
    .map((person) => ({ dependentId: person.id, label: `${fullName(person)} — ${person.location?.name ?? person.provider?.companyName ?? 'Needs a provider'}` }));
  return [own, ...family];
}

/**
 * 'Choosing for': which member of the family Select enrols. Shown to a Self subscriber with
 * family; the choice is the selected dependent (the avatar menu's Select Provider sets it too).
 */
export function MemberPicker() {
  const member = useMemberInfo();
  const selected = useSelectedDependentId();
  const id = useId();
  if (!member.data || member.data.subscriberRelation !== 'Self') return null;
  const options = pickerOptions(member.data);
  if (options.length < 2) return null;
  const current = options.some((option) => option.dependentId === selected) ? selected : null;
  return (
    <div className={styles.picker} data-testid="member-picker">
      <label htmlFor={id} className={styles.pickerLabel}>
        Choosing a provider for
      </label>
      <select id={id} className={styles.pickerSelect} value={current === null ? 'self' : String(current)} onChange={(event) => selectedDependent.set(event.target.value === 'self' ? null : Number(event.target.value))}>
        {options.map((option) => (
          <option key={option.dependentId ?? 'self'} value={option.dependentId === null ? 'self' : String(option.dependentId)}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
