import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { UserIcon } from '@/components/icons/icons';
import { paths } from '@/config/paths';
import { fullName, useMemberInfo, type FamilyMember, type Member } from '@/lib/member';
import { signOut } from '@/lib/session';
import { redirectTarget, selectedDependent } from '@/lib/storage';
import styles from './member-menu.module.css';

interface MenuPerson {
  id: number;
  name: string;
  provider: string | null;
  /** Null for the subscriber; a family member's id otherwise. */
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

/** The signed-in avatar menu: the family with their providers (or a red Select Provider), Add a family member, Sign Out. */
export function MemberMenu() {
  const member = useMemberInfo();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const people = menuPeople(member.data);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const close = () => setOpen(false);

  return (
    <div className={styles.root} ref={rootRef}>
      <button type="button" className={styles.avatar} aria-haspopup="menu" aria-expanded={open} aria-label="Account menu" onClick={() => setOpen((value) => !value)}>
        {member.data ? <span aria-hidden="true">{`${member.data.firstName?.[0] ?? ''}${member.data.lastName?.[0] ?? ''}`.toUpperCase() || <UserIcon />}</span> : <UserIcon />}
      </button>
      {open ? (
        <div className={styles.menu} role="menu" aria-label="Account">
          {member.data ? (
            <div className={styles.identity} role="none">
              <span>Signed in as</span>
              <strong>{member.data.email}</strong>
            </div>
          ) : null}
          {people.length > 0 ? (
            <ul className={styles.people} role="none">
              {people.map((person) => (
                <li key={person.id} role="none" className={styles.person}>
                  <span className={styles.personName}>{person.name || 'Member'}</span>
                  {person.provider ? (
                    <span className={styles.provider}>{person.provider}</span>
                  ) : (
                    <Link
                      role="menuitem"
                      to={paths.marketplace.getHref({ selectProvider: 'true' })}
                      className={styles.selectProvider}
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
          <Link
            role="menuitem"
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
          <Link role="menuitem" to={paths.accountDetails.path} className={styles.item} onClick={close}>
            My Account
          </Link>
          <button role="menuitem" type="button" className={styles.item} onClick={signOut}>
            Sign Out
          </button>
        </div>
      ) : null}
    </div>
  );
}
