import { Button } from '@/components/ui/button';
import { withProtocol } from '@/lib/format';

/** Opens a company's website in a new tab ('Visit Website'). */
export function WebsiteButton({ website }: { website: string }) {
  return (
    <Button variant="secondary" size="sm" onClick={() => window.open(withProtocol(website), '_blank', 'noopener')}>
      Visit Website
    </Button>
  );
}
