import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';

/** A form's closing row: optional extra buttons, Cancel and the submit button. */
export function FormActions({ className, onCancel, submitLabel, disabled = false, children }: { className?: string; onCancel: () => void; submitLabel: string; disabled?: boolean; children?: ReactNode }) {
  return (
    <div className={className}>
      {children}
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" disabled={disabled}>
        {submitLabel}
      </Button>
    </div>
  );
}
