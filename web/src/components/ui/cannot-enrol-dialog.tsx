import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { env } from '@/config/env';

interface CannotEnrolDialogProps {
  open: boolean;
  /** The clinic of the active membership. */
  location: string;
  onClose: () => void;
  /** Another refusal of the same kind ("You're already enrolled with a provider"); default: the active membership. */
  title?: string;
  /** The support address the server names, else the configured one. */
  supportEmail?: string | null;
}

/**
 * 'You have an active membership with {location}. Please contact us through our support email for
 * further assistance.': members with an active membership cannot pick a new provider.
 */
export function CannotEnrolDialog({ open, location, onClose, title, supportEmail }: CannotEnrolDialogProps) {
  const email = supportEmail || env.supportEmail;
  return (
    <Dialog open={open} title={title ?? `You have an active membership with ${location}`} onClose={onClose} footer={<Button onClick={onClose}>Got It</Button>}>
      <p>Please contact us through our support email for further assistance.</p>
      <p>
        <a href={`mailto:${email}`}>{email}</a>
      </p>
    </Dialog>
  );
}
