import { useParams } from 'react-router';
import { VendorProfile } from '@/features/solutions/components/vendor-profile';

/** /marketplace/vendor/details/{id}. */
export default function VendorProfileRoute() {
  const { id } = useParams();
  return <VendorProfile key={id} vendorId={Number(id)} />;
}
