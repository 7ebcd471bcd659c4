import { useState, type FormEvent } from 'react';
import { useDecideMembership } from '@/api/clinic-panel/decide-membership';
import type { PanelMembership } from '@/api/clinic-panel/types';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextAreaField, TextField } from '@/components/ui/field';
import { errorText, isApiError } from '@/lib/api-client';
import { formatDay, REASON_MAX, todayForForm } from '../utils/panel';
import styles from './clinic-panel.module.css';

export type DecisionKind = 'activate' | 'decline' | 'end';

/** The member a decision is about. */
export interface DecisionTarget {
  kind: DecisionKind;
  memberId: number;
  name: string;
  membership: Pick<PanelMembership, 'enrolledAt' | 'activeFrom'>;
}

const TITLES: Record<DecisionKind, (name: string) => string> = {
  activate: (name) => `Activate ${name}`,
  decline: (name) => `Decline ${name}`,
  end: (name) => `End ${name}'s membership`,
};

const CONFIRM: Record<DecisionKind, string> = {
  activate: 'Activate membership',
  decline: 'Decline enrolment',
  end: 'End membership',
};

/**
 * A screen's decisions: `choose` opens the dialog for a member, `dialog` is to be rendered, and
 * `notice` shows the server's message once a decision is made.
 */
export function useDecisions() {
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  function choose(next: DecisionTarget) {
    setMessage(null);
    setTarget(next);
  }
  const notice = message ? (
    <div role="status">
      <Alert tone="success">{message}</Alert>
    </div>
  ) : null;
  const dialog = (
    <DecisionDialog
      target={target}
      onClose={() => setTarget(null)}
      onDone={(text) => {
        setTarget(null);
        setMessage(text);
      }}
    />
  );
  return { choose, notice, dialog };
}

/**
 * Activate (the first visit's day: today by default, never in the future), Decline (a reason the
 * member reads) or End (a reason and the last day). The server's refusal is shown in the dialog;
 * `onDone` gets its success message.
 */
export function DecisionDialog({ target, onClose, onDone }: { target: DecisionTarget | null; onClose: () => void; onDone: (message: string) => void }) {
  return (
    <Dialog open={target !== null} title={target ? TITLES[target.kind](target.name) : ''} onClose={onClose}>
      {target ? <DecisionForm key={`${target.kind}-${target.memberId}`} target={target} onClose={onClose} onDone={onDone} /> : null}
    </Dialog>
  );
}

function DecisionForm({ target, onClose, onDone }: { target: DecisionTarget; onClose: () => void; onDone: (message: string) => void }) {
  const today = todayForForm();
  const enrolledOn = target.membership.enrolledAt.slice(0, 10);
  const [day, setDay] = useState(today);
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const decide = useDecideMembership();
  const reasonError = target.kind !== 'activate' && touched && !reason.trim() ? 'Please give a reason: the member will read it' : null;
  const dayError = !day ? 'Please choose a day' : day > today ? 'The day cannot be in the future' : null;
  const fieldError = isApiError(decide.error, 400) ? decide.error.message : null;
  const stateError = decide.error && !isApiError(decide.error, 400) ? errorText(decide.error, 'Oops. Something went wrong. Please try again.') : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (dayError && target.kind !== 'decline') return;
    if (target.kind !== 'activate' && !reason.trim()) return;
    const request =
      target.kind === 'activate'
        ? { memberId: target.memberId, decision: 'activate' as const, firstVisit: day }
        : target.kind === 'decline'
          ? { memberId: target.memberId, decision: 'decline' as const, reason }
          : { memberId: target.memberId, decision: 'end' as const, reason, endDate: day };
    decide.mutate(request, { onSuccess: (answer) => onDone(answer.message) });
  }

  return (
    <form className={styles.dialogForm} onSubmit={submit} noValidate>
      {target.kind === 'activate' ? (
        <>
          <p className={styles.muted}>
            Activate once the first visit happened. {target.name} enrolled on {formatDay(target.membership.enrolledAt)}; they are emailed that their membership is active.
          </p>
          <TextField label="Date of the first visit" type="date" value={day} onChange={setDay} min={enrolledOn} max={today} required error={dayError} />
        </>
      ) : null}
      {target.kind === 'decline' ? (
        <p className={styles.muted}>
          {target.name} goes back to choosing a clinic and is emailed your reason with a link to the marketplace. For example: “We cannot take new patients under 2 years old”.
        </p>
      ) : null}
      {target.kind === 'end' ? (
        <>
          <p className={styles.muted}>
            End an active membership (moved away, asked to leave). {target.name} is emailed your reason; the membership counts until its last day.
          </p>
          <TextField
            label="Last day of the membership"
            type="date"
            value={day}
            onChange={setDay}
            min={target.membership.activeFrom ?? undefined}
            max={today}
            required
            error={dayError}
          />
        </>
      ) : null}
      {target.kind !== 'activate' ? (
        <TextAreaField
          label="Reason (the member reads it)"
          value={reason}
          onChange={setReason}
          maxLength={REASON_MAX}
          required
          rows={4}
          error={reasonError}
          hint={`${reason.trim().length} of ${REASON_MAX} characters`}
        />
      ) : null}
      {fieldError ? <Alert tone="error">{fieldError}</Alert> : null}
      {stateError ? (
        <Alert tone="error" title="This decision could not be made">
          {stateError}
        </Alert>
      ) : null}
      <div className={styles.dialogActions}>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant={target.kind === 'activate' ? 'primary' : 'danger'} disabled={decide.isPending}>
          {decide.isPending ? 'Saving…' : CONFIRM[target.kind]}
        </Button>
      </div>
    </form>
  );
}
