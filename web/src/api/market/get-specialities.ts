import { queryKeys } from '@/api/query-keys';
import { filterListEndpoint } from '@/api/endpoint-query';

/** GET /market/specialities: the specialities filter list. */
const specialities = filterListEndpoint('/market/specialities', queryKeys.market.specialities);

export const getSpecialities = specialities.get;
export const specialitiesQueryOptions = specialities.options;
export const useSpecialities = specialities.use;
