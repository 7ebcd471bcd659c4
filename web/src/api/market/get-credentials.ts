import { queryKeys } from '@/api/query-keys';
import { filterListEndpoint } from '@/api/endpoint-query';

/** GET /market/credentials/provider: the credentials filter list (MD, DO, NP, ...). */
const credentials = filterListEndpoint('/market/credentials/provider', queryKeys.market.credentials);

export const getCredentials = credentials.get;
export const credentialsQueryOptions = credentials.options;
export const useCredentials = credentials.use;
