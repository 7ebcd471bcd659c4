import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from './button';
import { Dialog } from './dialog';

/** A button of an ActionDialog's footer. */
export interface DialogAction {
  label: ReactNode;
  onClick: () => void;
  disabled?: boolean;
  variant?: ButtonVariant;
}

interface ActionDialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  /** The main button, last in the footer. */
  primary: DialogAction;
  /** The other choice, before the main button (outlined unless it says otherwise). */
  secondary?: DialogAction;
  children?: ReactNode;
}

/** A dialog whose footer is one or two buttons: the shape of most outcome dialogs. */
export function ActionDialog({ open, title, onClose, primary, secondary, children }: ActionDialogProps) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      footer={
        <>
          {secondary ? (
            <Button variant={secondary.variant ?? 'secondary'} disabled={secondary.disabled} onClick={secondary.onClick}>
              {secondary.label}
            </Button>
          ) : null}
          <Button variant={primary.variant} disabled={primary.disabled} onClick={primary.onClick}>
            {primary.label}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
