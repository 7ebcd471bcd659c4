/** Query keys of the enrolment feature. */
export const enrolmentKeys = {
  all: ['enrolment'] as const,
  postEnrollment: (providerId: number, locationId: number | null) => [...enrolmentKeys.all, 'post-enrollment', providerId, locationId] as const,
};
