import { useCallback, useState } from 'react';
import { memberEmployer, useMemberInfo } from '@/lib/member';
import { useSignedIn } from '@/lib/session';
import { sessionValue } from '@/lib/storage';

/** Session storage: the Employer Confirmation dialog was answered on this visit. */
const EMPLOYER_CONFIRMED_KEY = 'employerConfirmed';

/**
 * The Employer Confirmation dialog: a signed-in member whose account names no employer confirms
 * one, once a visit (a custom company URL names it already).
 */
export function useEmployerConfirmation(companyParam: string | null) {
  const signedIn = useSignedIn();
  const memberInfo = useMemberInfo();
  const [answered, setAnswered] = useState(() => sessionValue.get<boolean>(EMPLOYER_CONFIRMED_KEY) === true);
  const open = signedIn && !answered && !companyParam && memberInfo.data !== undefined && memberEmployer(memberInfo.data) === null;
  const finish = useCallback(() => {
    sessionValue.set(EMPLOYER_CONFIRMED_KEY, true);
    setAnswered(true);
  }, []);
  return { open, finish };
}
