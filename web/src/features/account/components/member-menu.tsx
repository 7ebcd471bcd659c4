import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { UserIcon } from '@/components/icons/icons';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { hardNavigation } from '@/lib/hard-navigation';
import { fullName, useMemberInfo, type FamilyMember, type Member } from '@/lib/member';
import { actingSubscriberId, setAccessToken, signOut } from '@/lib/session';
import { redirectTarget, selectedDependent } from '@/lib/storage';
import { MESSAGES } from '@/lib/validation';
import { useSwitchMember, type MemberToken } from '@/api/account/switch-member';
import styles from './member-menu.module.css';

interface MenuPerson {
  id: number;
  name: string;
  provider: string | null;
  /** Null for the signed-in member; a family member's id otherwise. */
  dependentId: number | null;
}

/** The people the avatar menu lists: the member, then the family, each with their provider. */
export function menuPeople(member: Member | undefined): MenuPerson[] {
  if (!member) return [];
  const own: MenuPerson = { id: member.id, name: fullName(member), provider: member.location?.name ?? null, dependentId: null };
  const family = (member.family ?? []).filter((person) => person.id !== member.id);
  return [
    own,
    ...family.map((person: FamilyMember) => ({
      id: person.id,
      name: fullName(person),
      provider: person.location?.name ?? person.provider?.companyName ?? null,
      dependentId: person.id,
    })),
  ];
}

/**
 * Switches the session to another member of the family (GET /member/app/token/dependent/{id}):
 * the new token goes to the cookie and /home is loaded afresh as that member. A full load, not a
 * client navigation: every cached answer belongs to the member being left, and the page being
 * left (the family panel) would refetch its calls under the new token and be refused (403).
 */
export function useMemberSwitch() {
  const switchMember = useSwitchMember();
  return {
    pending: switchMember.isPending,
    error: switchMember.error ? errorText(switchMember.error, MESSAGES.somethingWrong) : null,
    switchTo: (id: number) =>
      switchMember.mutate(id, {
        onSuccess: (answer: MemberToken) => {
          setAccessToken(answer.accessToken);
          selectedDependent.set(null);
          hardNavigation.assign(paths.home.path);
        },
      }),
  };
}

/**
 * The signed-in avatar menu: the family with their providers (or a red Select Provider), a switch
 * into each family member's account (and back), Add a family member, My Account, Sign Out.
 */
export function MemberMenu() {
  const member = useMemberInfo();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const people = menuPeople(member.data);
  const memberSwitch = useMemberSwitch();
  // Signed in as a family member by the subscriber: the way back.
  const subscriberId = actingSubscriberId();
  const isSubscriber = member.data?.subscriberRelation === 'Self' && subscriberId === null;
  // Family management is the subscriber's (a spouse or dependent, or a switched session, cannot add).
  const canAddFamily = subscriberId === null && (member.data?.subscriberRelation ?? 'Self') === 'Self';

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const close = () => setOpen(false);
  const initials = member.data ? `${member.data.firstName?.[0] ?? ''}${member.data.lastName?.[0] ?? ''}`.toUpperCase() : '';

  return (
    <div className={styles.root} ref={rootRef}>
      {subscriberId !== null && member.data ? (
        <span className={styles.acting} data-testid="acting-as" title={`Viewing ${member.data.firstName}'s account`}>
          <span className={styles.actingLong}>Viewing {member.data.firstName}&apos;s account</span>
          <span className={styles.actingShort} aria-hidden="true">
            As {member.data.firstName}
          </span>
        </span>
      ) : null}
      {/* A disclosure, not an ARIA menu: the panel holds text (who is signed in, each person's
          provider) besides links and buttons, and is walked with Tab. Its name starts with the
          initials it shows, so a person who says what they see reaches it. */}
      <button ref={buttonRef} type="button" className={styles.avatar} aria-expanded={open} aria-controls={open ? panelId : undefined} onClick={() => setOpen((value) => !value)}>
        {initials ? <span>{initials}</span> : <UserIcon />}
        <span className="visually-hidden">{initials ? ', account menu' : 'Account menu'}</span>
      </button>
      {open ? (
        <div className={styles.menu} id={panelId} role="group" aria-label="Account">
          {member.data ? (
            <div className={styles.identity}>
              <span>{subscriberId !== null ? 'Acting as' : 'Signed in as'}</span>
              <strong>{subscriberId !== null ? fullName(member.data) : member.data.email}</strong>
            </div>
          ) : null}
          {people.length > 0 ? (
            <ul className={styles.people} aria-label="Family members">
              {people.map((person) => (
                <li key={person.id} className={styles.person} data-testid="menu-person">
                  <span className={styles.personRow}>
                    <span className={styles.personName}>{person.name || 'Member'}</span>
                    {person.dependentId !== null && isSubscriber ? (
                      <button
                        type="button"
                        className={styles.switch}
                        aria-label={`Switch to ${person.name}`}
                        disabled={memberSwitch.pending}
                        onClick={() => {
                          close();
                          memberSwitch.switchTo(person.dependentId!);
                        }}
                      >
                        Switch
                      </button>
                    ) : null}
                  </span>
                  {person.provider ? (
                    <span className={styles.provider}>{person.provider}</span>
                  ) : (
                    <Link
                      to={paths.marketplace.getHref({ selectProvider: 'true' })}
                      className={styles.selectProvider}
                      aria-label={`Select Provider for ${person.name}`}
                      onClick={() => {
                        selectedDependent.set(person.dependentId);
                        close();
                      }}
                    >
                      Select Provider
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          ) : null}
          {memberSwitch.error ? (
            <p className={styles.error} role="alert">
              {memberSwitch.error}
            </p>
          ) : null}
          {subscriberId !== null ? (
            <button
              type="button"
              className={styles.item}
              disabled={memberSwitch.pending}
              onClick={() => {
                close();
                memberSwitch.switchTo(subscriberId);
              }}
            >
              Switch back to my account
            </button>
          ) : null}
          {canAddFamily ? (
            <Link
              to={paths.addFamilyMember.path}
              className={styles.item}
              onClick={() => {
                selectedDependent.set(null);
                redirectTarget.set(paths.accountDetails.path);
                close();
              }}
            >
              Add a family member
            </Link>
          ) : null}
          <Link
            to={paths.accountDetails.path}
            className={styles.item}
            onClick={() => {
              selectedDependent.set(null);
              close();
            }}
          >
            My Account
          </Link>
          <button type="button" className={styles.item} onClick={signOut}>
            Sign Out
          </button>
        </div>
      ) : null}
    </div>
  );
}
