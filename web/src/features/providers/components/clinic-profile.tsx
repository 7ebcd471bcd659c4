import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { CheckIcon, DirectionsIcon, GlobeIcon } from '@/components/icons/icons';
import { BottomBar } from '@/components/ui/bottom-bar';
import { Button, LinkButton } from '@/components/ui/button';
import { CareModalities } from '@/components/ui/care-modalities';
import { CollapsibleText } from '@/components/ui/collapsible-text';
import { MarketplaceLoadError } from '@/components/ui/load-error';
import { LogoAvatar } from '@/components/ui/logo-avatar';
import { Spinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { directionsUrl, genderLabel, withProtocol } from '@/lib/format';
import { useMemberState } from '@/lib/member-state';
import { useSignedIn } from '@/lib/session';
import { serviceTypeName } from '@/lib/service-types';
import { lastSearchOrigin, selectedProvider } from '@/lib/storage';
import { useClinicProfile } from '@/api/market/get-clinic-profile';
import { useWaitlistJoined } from '@/api/market/waitlist-joined';
import type { ClinicProfile as ClinicProfileData } from '@/api/market/profile-types';
import { clinicFooterAction } from '../utils/footer-action';
import { AccessFacts, OpeningHours, OpenNowBadge, StaleBadge, VerifiedLine } from './listing-facts';
import { ProfileToolbar } from './profile-toolbar';
import styles from './profile.module.css';

const StaticMap = lazy(() => import('@/components/map/static-map'));

type ClinicTab = 'info' | 'contact' | 'services' | 'providers';

export const NOT_ACCEPTING_TEXT = 'This location is not accepting new patients at the moment';
export const WAITLISTED_TEXT = "You're on the waitlist of this location: we'll email you when a spot opens.";

interface ClinicProfileProps {
  organisationId: number;
  locationId: number | null;
  /** The location search box (composed by the route from the marketplace feature). */
  locationSearch?: ReactNode;
  /** Opens the waitlist dialog for this clinic (composed by the route). */
  onJoinWaitlist?: (target: { locationId: number; name: string }) => void;
  /**
   * Select provider: the enrolment flow (composed by the route). Without it, the clinic is stored
   * as the selected provider and a visitor goes to /register.
   */
  onSelect?: (target: ClinicSelection) => void;
  /** A set-provider call is in flight. */
  selecting?: boolean;
}

/** The clinic Select provider acts on. */
export interface ClinicSelection {
  providerId: number;
  locationId: number;
  name: string;
  locationName: string;
}

/** /marketplace/provider/details/{id}?location={locationId}: a clinic location's profile. */
export function ClinicProfile({ organisationId, locationId, locationSearch, onJoinWaitlist, onSelect, selecting = false }: ClinicProfileProps) {
  const member = useMemberState();
  const signedIn = useSignedIn();
  // With a family member chosen, the profile is theirs (their membership marks the footer).
  const profile = useClinicProfile(organisationId, locationId, signedIn ? (member?.dependentId ?? null) : null);
  const [tab, setTab] = useState<ClinicTab>('info');

  if (profile.isPending) return <Spinner label="Loading clinic" />;
  if (profile.isError) {
    return <MarketplaceLoadError className={styles.page} title={isApiError(profile.error, 404) ? 'Provider not found' : 'Failed to get Provider details'} />;
  }
  const clinic = profile.data;
  const tabs = [
    { key: 'info' as const, label: 'Info' },
    { key: 'contact' as const, label: 'Contact Information' },
    { key: 'services' as const, label: 'Services' },
    { key: 'providers' as const, label: 'Providers', count: clinic.clinicians.length },
  ];

  return (
    <div className={styles.page}>
      <ProfileToolbar
        title={clinic.companyName}
        favorite={clinic.favorite}
        favoriteRequest={(favorite) => ({ entity: 'location', location: clinic.locationId, favorite })}
      />
      <ClinicHero clinic={clinic} />
      <div>
        <div className={styles.tabsWrap}>
          <Tabs tabs={tabs} active={tab} onChange={setTab} label="Clinic details" idPrefix="clinic" />
        </div>
        <div role="tabpanel" id={`clinic-panel-${tab}`} aria-labelledby={`clinic-tab-${tab}`} className={styles.panel}>
          {tab === 'info' ? <InfoPanel clinic={clinic} /> : null}
          {tab === 'contact' ? <ContactPanel clinic={clinic} /> : null}
          {tab === 'services' ? <ServicesPanel clinic={clinic} /> : null}
          {tab === 'providers' ? <ProvidersPanel clinic={clinic} /> : null}
        </div>
      </div>
      {locationSearch ? (
        <section className={styles.search} aria-labelledby="other-location-title">
          <h2 id="other-location-title">Search another location</h2>
          {locationSearch}
        </section>
      ) : null}
      <ClinicFooter clinic={clinic} onJoinWaitlist={onJoinWaitlist} onSelect={onSelect} selecting={selecting} />
    </div>
  );
}

function ClinicHero({ clinic }: { clinic: ClinicProfileData }) {
  const origin = lastSearchOrigin.get();
  const website = clinic.contact.website;
  return (
    <section className={styles.hero} aria-labelledby="clinic-name">
      <LogoAvatar name={clinic.companyName} logo={clinic.logo} size={72} />
      <div className={styles.heroBody}>
        <h1 id="clinic-name">{clinic.companyName}</h1>
        {clinic.locationName && clinic.locationName !== clinic.companyName ? <p className={styles.subtitle}>{clinic.locationName}</p> : null}
        {clinic.credentials ? <p className={styles.subtitle}>{clinic.credentials}</p> : null}
        <div className={styles.badges}>
          <span className={clinic.newPatients ? styles.accepting : styles.closed}>
            {clinic.newPatients ? 'Accepting new patients' : 'Not accepting new patients'}
          </span>
          {clinic.isVirtualLocation ? <span className={styles.trusted}>Virtual Network</span> : null}
          <OpenNowBadge hours={clinic.hours} timeZone={clinic.timeZone} />
          <StaleBadge lastVerified={clinic.lastVerified} />
        </div>
        <VerifiedLine lastVerified={clinic.lastVerified} />
        <div className={styles.actions}>
          {!clinic.isVirtualLocation ? (
            <Button
              variant="secondary"
              size="sm"
              icon={<DirectionsIcon size={16} />}
              onClick={() => window.open(directionsUrl(clinic.contact.coordinates, origin), '_blank', 'noopener')}
            >
              Directions
            </Button>
          ) : null}
          {website ? (
            <Button variant="secondary" size="sm" icon={<GlobeIcon size={16} />} onClick={() => window.open(withProtocol(website), '_blank', 'noopener')}>
              Website
            </Button>
          ) : null}
        </div>
      </div>
    </section>
  );
}

function InfoPanel({ clinic }: { clinic: ClinicProfileData }) {
  return (
    <>
      <section className={styles.section}>
        <h2>About</h2>
        {clinic.details.description ? <CollapsibleText text={clinic.details.description} /> : <p className={styles.muted}>No description yet.</p>}
      </section>
      <OpeningHours hours={clinic.hours} timeZone={clinic.timeZone} />
      <section className={styles.section}>
        <h2>Care modalities</h2>
        <CareModalities modality={clinic.careModality} isVirtualLocation={clinic.isVirtualLocation} homeCare={clinic.homeCare} variant="detailed" />
      </section>
      <AccessFacts languages={clinic.languages} accessibility={clinic.accessibility} telehealth={clinic.telehealth} />
      {clinic.otherLocations.length > 0 ? (
        <section className={styles.section}>
          <h2>Other locations</h2>
          <ul className={styles.people}>
            {clinic.otherLocations.map((other) => (
              <li key={other.locationId}>
                <Link className={styles.person} to={paths.clinicProfile.getHref(clinic.id, other.locationId)}>
                  <div>
                    <strong>{other.locationName}</strong>
                    <span className={styles.line}>
                      {other.address1}, {other.city}, {other.state}
                    </span>
                  </div>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

function ContactPanel({ clinic }: { clinic: ClinicProfileData }) {
  const { contact } = clinic;
  const origin = lastSearchOrigin.get();
  const markers = useMemo(
    () => [{ lat: contact.coordinates.lat, lng: contact.coordinates.lng, name: clinic.companyName, accepting: clinic.newPatients }],
    [contact.coordinates.lat, contact.coordinates.lng, clinic.companyName, clinic.newPatients],
  );
  return (
    <div className={styles.contactGrid}>
      <section className={styles.section}>
        <h2>Contact information</h2>
        <dl className={styles.contact}>
          <dt>Phone</dt>
          <dd>{contact.phone ? <a href={`tel:${contact.phone.replace(/[^\d+]/g, '')}`}>{contact.phone}</a> : '—'}</dd>
          <dt>Address</dt>
          <dd>{contact.address1 || '—'}</dd>
          <dt>City</dt>
          <dd>{contact.city || '—'}</dd>
          <dt>State</dt>
          <dd>{contact.state || '—'}</dd>
          <dt>Zip</dt>
          <dd>{contact.zipCode || '—'}</dd>
          <dt>Website</dt>
          <dd>
            {contact.website ? (
              <a href={withProtocol(contact.website)} target="_blank" rel="noopener noreferrer">
                {contact.website}
              </a>
            ) : (
              '—'
            )}
          </dd>
        </dl>
      </section>
      {!clinic.isVirtualLocation ? (
        <section className={styles.section}>
          <h2>Map</h2>
          <Suspense fallback={<Spinner label="Loading map" />}>
            <StaticMap markers={markers} zoom={15} label={`Map showing ${clinic.companyName}`} />
          </Suspense>
          <div>
            <Button variant="secondary" size="sm" icon={<DirectionsIcon size={16} />} onClick={() => window.open(directionsUrl(contact.coordinates, origin), '_blank', 'noopener')}>
              Get directions
            </Button>
          </div>
        </section>
      ) : null}
    </div>
  );
}

function ServicesPanel({ clinic }: { clinic: ClinicProfileData }) {
  if (clinic.services.length === 0) return <p className={styles.muted}>This clinic has not listed its services yet.</p>;
  return (
    <section className={styles.section}>
      <h2>Services</h2>
      <ul className={styles.plainList}>
        {clinic.services.map((service) => (
          <li key={service.serviceType}>
            <CheckIcon size={18} />
            {serviceTypeName(service.serviceType)}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ProvidersPanel({ clinic }: { clinic: ClinicProfileData }) {
  if (clinic.clinicians.length === 0) return <p className={styles.muted}>This clinic has not listed its providers yet.</p>;
  return (
    <section className={styles.section}>
      <h2>Providers</h2>
      <ul className={styles.people}>
        {clinic.clinicians.map((person) => (
          <li key={person.id}>
            <Link className={styles.person} to={paths.clinicianProfile.getHref(person.id)}>
              <LogoAvatar name={person.providerName} logo={person.logo} shape="round" size={44} />
              <div>
                <strong>
                  {person.providerName}
                  {person.credentials ? `, ${person.credentials}` : ''}
                </strong>
                <span className={styles.line}>{person.category}</span>
                {genderLabel(person.gender) ? <span className={styles.line}>{genderLabel(person.gender)}</span> : null}
                {person.worksAt ? <span className={styles.line}>Works at {person.worksAt}</span> : null}
              </div>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ClinicFooter({
  clinic,
  onJoinWaitlist,
  onSelect,
  selecting,
}: {
  clinic: ClinicProfileData;
  onJoinWaitlist?: ClinicProfileProps['onJoinWaitlist'];
  onSelect?: ClinicProfileProps['onSelect'];
  selecting: boolean;
}) {
  const member = useMemberState();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const waitlisted = useWaitlistJoined();
  const kind = clinicFooterAction(clinic, member, waitlisted(clinic));

  function select() {
    const target = { providerId: clinic.id, locationId: clinic.locationId, name: clinic.companyName, locationName: clinic.locationName };
    if (onSelect) {
      onSelect(target);
      return;
    }
    selectedProvider.set(target);
    if (!signedIn) navigate(paths.register.path);
  }

  return (
    <BottomBar data-testid="clinic-footer">
      {kind === 'waitlist' ? (
        <>
          <p className={styles.footerText}>{NOT_ACCEPTING_TEXT}</p>
          <LinkButton variant="secondary" to={paths.marketplace.path}>
            Find another location
          </LinkButton>
          <Button onClick={() => onJoinWaitlist?.({ locationId: clinic.locationId, name: clinic.companyName })}>Join the waitlist</Button>
        </>
      ) : null}
      {kind === 'waitlisted' ? (
        <>
          <p className={styles.footerText}>{WAITLISTED_TEXT}</p>
          <LinkButton variant="secondary" to={paths.marketplace.path}>
            Find another location
          </LinkButton>
          <Button disabled icon={<CheckIcon size={16} />}>
            On the waitlist
          </Button>
        </>
      ) : null}
      {kind === 'select' ? (
        <Button onClick={select} disabled={selecting}>
          {selecting ? 'Selecting…' : 'Select provider'}
        </Button>
      ) : null}
      {kind === 'confirm-eligibility' ? <LinkButton to={paths.confirmPlanInformation.path}>Confirm eligibility</LinkButton> : null}
      {kind === 'pending-membership' ? <Button disabled>Pending Membership</Button> : null}
      {kind === 'active-membership' ? <Button disabled>Active Membership</Button> : null}
    </BottomBar>
  );
}
