/** The eligibility answers' texts (accounts spec, section 8), shown by the eligibility form and by every save that checks eligibility again. */
export const ELIGIBILITY_TEXTS = {
  wrongData: 'We were unable to verify eligibility. Please enter subscriber information and resubmit.',
  memberExists: 'Member already exists',
  couldNotConfirm: 'Oops! We could not confirm eligibility.',
  notEligible: 'Oops! It seems that you are not eligible on this plan.',
  systemDown: 'Oops! It seems our system is down',
  accountExists: 'Oops, it seems an account already exists with this information.',
  noData: 'No Selected Provider and Registration Data',
  confirmError: 'Sorry, something went wrong while confirming your data...',
  banner: 'We could not verify your eligibility. Please review your information and submit it again.',
} as const;
