import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { env } from '@/config/env';

/** 'You have an active membership with {location}': members with an active membership cannot pick a new provider. */
export function CannotEnrolDialog({ open, location, onClose }: { open: boolean; location: string; onClose: () => void }) {
  return (
    <Dialog open={open} title={`You have an active membership with ${location}`} onClose={onClose} footer={<Button onClick={onClose}>Got It</Button>}>
      <p>
        Please contact us through our support email for further assistance: <a href={`mailto:${env.supportEmail}`}>{env.supportEmail}</a>
      </p>
    </Dialog>
  );
}
