import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ChevronLeftIcon, ChevronRightIcon, PhoneIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { Button, LinkButton } from '@/components/ui/button';
import { MembershipNotice } from '@/components/ui/membership-notice';
import { Notice, useNotice } from '@/components/ui/notice';
import { ProviderSummary } from '@/components/ui/provider-summary';
import { Spinner } from '@/components/ui/spinner';
import { StatusDot } from '@/components/ui/status-dot';
import { Stepper } from '@/components/ui/stepper';
import { env } from '@/config/env';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { fullName, longDate, membershipCardStatus, membershipDate, useMemberInfo, type FamilyMember, type Member, type MemberLocation, type MemberMembership } from '@/lib/member';
import { addFamilyChoice, redirectTarget, selectedProvider } from '@/lib/storage';
import { MESSAGES } from '@/lib/validation';
import { backTarget, membershipAction, membershipProgress, membershipSteps, swiperLayout } from '../utils/membership-rules';
import styles from './membership-page.module.css';

export const MEMBERSHIP_TEXTS = {
  pendingTitle: 'YOUR MEMBERSHIP IS STILL PENDING',
  activeTitle: 'YOUR MEMBERSHIP IS ACTIVE',
  endedTitle: 'YOUR MEMBERSHIP HAS ENDED',
  declinedTitle: 'PLEASE CHOOSE ANOTHER CLINIC',
  noLink: 'No custom link was found',
  noPhone: 'No phone number was found',
  clinicWillCall: 'The clinic will reach out to schedule your first appointment',
} as const;

/** One membership card: a member of the family and the provider they are enrolled with. */
export interface MembershipCardData {
  id: number;
  name: string;
  status: string | null | undefined;
  employer: string | null | undefined;
  location: MemberLocation | null | undefined;
  membership?: MemberMembership | null;
}

/** The subscriber (Self) sees cards for the whole family; others see their own. */
export function membershipCards(member: Member): MembershipCardData[] {
  const own: MembershipCardData = {
    id: member.id,
    name: fullName(member),
    status: member.subscription?.status,
    employer: member.companyName,
    location: member.location,
    membership: member.membership,
  };
  if (member.subscriberRelation !== 'Self') return [own];
  const family = (member.family ?? []).filter((person) => person.id !== member.id);
  return [own, ...family.map((person: FamilyMember) => ({
    id: person.id,
    name: fullName(person),
    status: person.subscription?.status,
    employer: person.employer?.companyName ?? person.companyName ?? member.companyName,
    location: person.location,
    membership: person.membership,
  }))];
}

/** /membership (2.23): the membership cards, the steps to activate and the action that activates. */
export function MembershipPage() {
  const member = useMemberInfo();
  if (member.isPending) return <Spinner label="Loading your membership" />;
  if (member.isError || !member.data) {
    return (
      <div className={styles.page}>
        <Alert tone="error">{errorText(member.error, MESSAGES.tryLater)}</Alert>
      </div>
    );
  }
  return <MembershipContent member={member.data} />;
}

function MembershipContent({ member }: { member: Member }) {
  const notice = useNotice();
  const cards = membershipCards(member);
  const providerChosenFirst = selectedProvider.get() !== null;
  const steps = membershipSteps(providerChosenFirst, addFamilyChoice.get(), cards.length);
  const progress = membershipProgress(steps, member, cards.length);
  const active = member.subscription?.status === 'active';
  const pending = member.subscription?.status === 'pending';
  const ended = member.membership?.status === 'ended' && !member.location;
  const declined = member.membership?.status === 'declined' && !member.location;
  const action = membershipAction(member);
  const back = backTarget(redirectTarget.get());
  const since = longDate(member.membership?.activeFrom);
  const title = active ? MEMBERSHIP_TEXTS.activeTitle : ended ? MEMBERSHIP_TEXTS.endedTitle : declined ? MEMBERSHIP_TEXTS.declinedTitle : MEMBERSHIP_TEXTS.pendingTitle;
  const lead = active
    ? `You have 24x7 access to your provider${since ? `: your membership is active since your first visit on ${since}` : ''}.`
    : ended || declined
      ? 'Choose another clinic in the marketplace to start a new membership.'
      : 'Complete your intake visit with your provider, virtual or in person, to activate your membership and get 24x7 access to your provider.';

  return (
    <div className={styles.page}>
      <Link to={back} className={styles.back}>
        <ChevronLeftIcon size={18} /> Back
      </Link>
      <header className={styles.header}>
        <h1>{title}</h1>
        <p className={styles.lead}>{lead}</p>
      </header>
      <MembershipNotice membership={member.membership} />
      <Stepper steps={steps} current={progress.current} done={progress.done} label="Membership steps" />

      {member.location ? (
        <section className={styles.selected} aria-label="Selected provider">
          <p className={styles.selectedTitle}>You&apos;ve selected:</p>
          <ProviderSummary
            provider={{ name: member.location.name, logo: member.location.logo, address1: member.location.address1, city: member.location.city, state: member.location.state, zip: member.location.zip }}
          />
        </section>
      ) : null}

      <CardCarousel cards={cards} />

      <div className={styles.actions}>
        {action.kind === 'activate' ? (
          <Button
            onClick={() => {
              if (!action.link) notice.show(MEMBERSHIP_TEXTS.noLink);
              else window.open(action.link, '_blank', 'noopener');
            }}
          >
            Activate membership
          </Button>
        ) : null}
        {action.kind === 'call' ? (
          <div className={styles.call}>
            <a
              className={styles.callButton}
              href={`tel:${action.phone.replace(/[^\d+]/g, '')}`}
              onClick={(event) => {
                if (!action.phone) {
                  event.preventDefault();
                  notice.show(MEMBERSHIP_TEXTS.noPhone);
                }
              }}
            >
              <PhoneIcon size={18} /> Call clinic
            </a>
            <span className={styles.muted}>or dial {action.phone}</span>
          </div>
        ) : null}
        {action.kind === 'wait' && member.location && pending ? <p className={styles.note}>{MEMBERSHIP_TEXTS.clinicWillCall}</p> : null}
        {action.kind === 'wait' && !member.location ? <LinkButton to={paths.marketplace.path}>Find a provider</LinkButton> : null}
        <LinkButton variant="secondary" to={paths.accountDetails.path}>
          View my account
        </LinkButton>
      </div>
      <p className={styles.support}>
        Questions about your membership? Write to <a href={`mailto:${env.supportEmail}`}>{env.supportEmail}</a>
      </p>
      <Notice message={notice.message} />
    </div>
  );
}

function MembershipCard({ card }: { card: MembershipCardData }) {
  const status = membershipCardStatus(card.status);
  const location = card.location;
  const date = membershipDate(card.membership);
  return (
    <article className={styles.card} data-testid="membership-card" aria-label={`Membership card of ${card.name}`}>
      <div className={styles.cardTop}>
        <span className={styles.brand}>Nearcare membership</span>
        <StatusDot label={status.label} tone={status.tone} />
      </div>
      <p className={styles.cardName}>{card.name}</p>
      <p className={styles.cardEmployer}>{card.employer ?? '—'}</p>
      {date ? (
        <p className={styles.cardDate}>
          {date.label}: {date.value}
        </p>
      ) : null}
      <div className={styles.cardProvider}>
        {location ? (
          <>
            <strong>{location.name}</strong>
            <span>{[location.address1, location.city, [location.state, location.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ')}</span>
          </>
        ) : (
          <span>Needs a provider</span>
        )}
      </div>
    </article>
  );
}

/** Up to 3 cards side by side; more become a swiper that starts on the card the rule picks. */
function CardCarousel({ cards }: { cards: MembershipCardData[] }) {
  const trackRef = useRef<HTMLDivElement>(null);
  const [layout] = useState(() => swiperLayout(cards.length, window.innerWidth));
  const [index, setIndex] = useState(layout.initialIndex);

  /** Scrolls the track (not the page) so that card `position` sits in the middle. */
  function centre(position: number, behavior: ScrollBehavior) {
    const track = trackRef.current;
    const card = track?.children[position] as HTMLElement | undefined;
    if (!track || !card) return;
    const left = card.offsetLeft - (track.clientWidth - card.offsetWidth) / 2;
    if (typeof track.scrollTo === 'function') track.scrollTo({ left, behavior });
    else track.scrollLeft = left;
  }

  useLayoutEffect(() => {
    if (layout.swiper) centre(layout.initialIndex, 'auto');
  }, [layout]);

  useEffect(() => {
    const track = trackRef.current;
    if (!layout.swiper || !track) return;
    const onScroll = () => {
      const children = [...track.children] as HTMLElement[];
      const centre = track.scrollLeft + track.clientWidth / 2;
      let nearest = 0;
      children.forEach((child, position) => {
        const middle = child.offsetLeft + child.offsetWidth / 2;
        if (Math.abs(middle - centre) < Math.abs(children[nearest]!.offsetLeft + children[nearest]!.offsetWidth / 2 - centre)) nearest = position;
      });
      setIndex(nearest);
    };
    track.addEventListener('scroll', onScroll, { passive: true });
    return () => track.removeEventListener('scroll', onScroll);
  }, [layout.swiper]);

  function go(next: number) {
    const bounded = Math.max(0, Math.min(cards.length - 1, next));
    setIndex(bounded);
    centre(bounded, 'smooth');
  }

  if (!layout.swiper) {
    return (
      <div className={styles.grid} data-testid="membership-cards">
        {cards.map((card) => (
          <MembershipCard key={card.id} card={card} />
        ))}
      </div>
    );
  }
  return (
    <div className={styles.swiper} data-testid="membership-swiper" aria-roledescription="carousel" aria-label="Membership cards">
      <div className={styles.track} ref={trackRef}>
        {cards.map((card, position) => (
          <div key={card.id} className={styles.slide} aria-roledescription="slide" aria-label={`${position + 1} of ${cards.length}`} data-current={position === index}>
            <MembershipCard card={card} />
          </div>
        ))}
      </div>
      <div className={styles.swiperControls}>
        <button type="button" className={styles.swiperButton} aria-label="Previous card" onClick={() => go(index - 1)} disabled={index === 0}>
          <ChevronLeftIcon size={18} />
        </button>
        <span className={styles.muted} aria-live="polite">
          {index + 1} / {cards.length}
        </span>
        <button type="button" className={styles.swiperButton} aria-label="Next card" onClick={() => go(index + 1)} disabled={index === cards.length - 1}>
          <ChevronRightIcon size={18} />
        </button>
      </div>
    </div>
  );
}
