import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { SelectField, TextField } from '@/components/ui/field';
import { dateError, maskDate, memberIdError, requiredError, usDateToIso } from '@/lib/validation';
import type { SubscriberInfo } from '@/api/eligibility/types';
import styles from './eligibility.module.css';

const GENDERS = [
  { value: 'f', label: 'Female' },
  { value: 'm', label: 'Male' },
];

/** The subscriber information dialog: the roster needs the employee's own details to match a spouse or dependent. */
export function SubscriberDialog({ open, onClose, onSubmit, initialMemberId }: { open: boolean; onClose: () => void; onSubmit: (subscriber: SubscriberInfo) => void; initialMemberId: string }) {
  const [values, setValues] = useState({ firstName: '', lastName: '', dob: '', gender: '', memberId: initialMemberId });
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (open) {
      setValues((current) => ({ ...current, memberId: current.memberId || initialMemberId }));
      setTouched(false);
    }
  }, [open, initialMemberId]);

  const errors = {
    firstName: requiredError(values.firstName),
    lastName: requiredError(values.lastName),
    dob: dateError(values.dob),
    gender: requiredError(values.gender),
    memberId: memberIdError(values.memberId),
  };
  const valid = Object.values(errors).every((message) => message === null);
  const set = (key: keyof typeof values) => (value: string) => setValues((current) => ({ ...current, [key]: key === 'dob' ? maskDate(value) : value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!valid) return;
    onSubmit({
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      dob: usDateToIso(values.dob)!,
      gender: values.gender,
      memberId: values.memberId.trim(),
    });
  }

  return (
    <Dialog open={open} title="Subscriber information" description="We were unable to verify eligibility. Please enter subscriber information and resubmit." onClose={onClose}>
      <form className={styles.dialogForm} onSubmit={submit} noValidate>
        <div className={styles.row}>
          <TextField label="Subscriber first name" value={values.firstName} onChange={set('firstName')} error={touched ? errors.firstName : null} />
          <TextField label="Subscriber last name" value={values.lastName} onChange={set('lastName')} error={touched ? errors.lastName : null} />
        </div>
        <div className={styles.row}>
          <TextField label="Subscriber date of birth" placeholder="MM/DD/YYYY" inputMode="numeric" maxLength={10} value={values.dob} onChange={set('dob')} error={touched ? errors.dob : null} />
          <SelectField label="Subscriber gender" placeholder="Select" options={GENDERS} value={values.gender} onChange={set('gender')} error={touched ? errors.gender : null} />
        </div>
        <TextField label="Subscriber member ID" value={values.memberId} onChange={set('memberId')} error={touched ? errors.memberId : null} />
        <div className={styles.actions}>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit">Resubmit</Button>
        </div>
      </form>
    </Dialog>
  );
}
