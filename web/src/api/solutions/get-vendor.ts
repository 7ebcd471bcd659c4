import { queryKeys } from '@/api/query-keys';
import { recordEndpoint } from '@/api/endpoint-query';
import type { Vendor } from './types';

/** GET /dpcproviders/market/vendor/{id}: a point-solution vendor. */
const vendor = recordEndpoint<Vendor>((id) => `/dpcproviders/market/vendor/${id}`, queryKeys.solutions.vendor);

export const getVendor = vendor.get;
export const vendorQueryOptions = vendor.options;
export const useVendor = vendor.use;
