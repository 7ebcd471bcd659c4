/** Query keys of the solutions feature. */
export const solutionKeys = {
  all: ['solutions'] as const,
  categories: () => [...solutionKeys.all, 'categories'] as const,
  vendor: (id: number) => [...solutionKeys.all, 'vendor', id] as const,
  solution: (id: number) => [...solutionKeys.all, 'solution', id] as const,
};
