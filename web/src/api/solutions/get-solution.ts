import { queryKeys } from '@/api/query-keys';
import { recordEndpoint } from '@/api/endpoint-query';
import type { Solution } from './types';

/** GET /dpcproviders/market/solution/{id}: a marketplace solution. */
const solution = recordEndpoint<Solution>((id) => `/dpcproviders/market/solution/${id}`, queryKeys.solutions.solution);

export const getSolution = solution.get;
export const solutionQueryOptions = solution.options;
export const useSolution = solution.use;
