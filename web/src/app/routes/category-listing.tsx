import { useParams } from 'react-router';
import { CategoryListing } from '@/features/solutions/components/category-listing';

/** /marketplace/all/{category}. */
export default function CategoryListingRoute() {
  const { category = '' } = useParams();
  return <CategoryListing category={category} />;
}
