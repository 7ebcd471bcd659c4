import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { PROVIDER_TEXTS } from '../utils/participation';

/** A message with one Okay button, which closes it like the dialog's own close. */
export function NoticeDialog({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  return (
    <Dialog open={open} title={title} onClose={onClose} footer={<Button onClick={onClose}>Okay</Button>}>
      {children}
    </Dialog>
  );
}

/**
 * The error modal of a provider request: the server's message, with Cancel and Retry when
 * sending again can help (`onRetry`), else Okay.
 */
export function FailureDialog({
  message,
  onDismiss,
  onRetry,
  retrying = false,
}: {
  message: string | null;
  onDismiss: () => void;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  return (
    <Dialog
      open={message !== null}
      title={PROVIDER_TEXTS.retryTitle}
      onClose={onDismiss}
      footer={
        onRetry ? (
          <>
            <Button variant="secondary" onClick={onDismiss}>
              Cancel
            </Button>
            <Button disabled={retrying} onClick={onRetry}>
              Retry
            </Button>
          </>
        ) : (
          <Button onClick={onDismiss}>Okay</Button>
        )
      }
    >
      <p role="alert">{message}</p>
    </Dialog>
  );
}
