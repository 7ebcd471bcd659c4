import { lazy, Suspense, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { BriefcaseIcon, ChatIcon, CheckIcon, ClinicIcon, PhoneIcon, ShieldCheckIcon, VideoIcon } from '@/components/icons/icons';
import { Button, LinkButton } from '@/components/ui/button';
import { CareModalities, defaultModalities } from '@/components/ui/care-modalities';
import { CollapsibleText } from '@/components/ui/collapsible-text';
import { MarketplaceLoadError } from '@/components/ui/load-error';
import { LogoAvatar } from '@/components/ui/logo-avatar';
import { Spinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { formatMiles, genderLabel } from '@/lib/format';
import { useSignedIn } from '@/lib/session';
import { lastSearchOrigin } from '@/lib/storage';
import { useClinician } from '@/api/market/get-clinician';
import type { Clinician, ClinicianClinic } from '@/api/market/profile-types';
import { ProfileToolbar } from './profile-toolbar';
import { AccessFacts, StaleBadge, VerifiedLine } from './listing-facts';
import styles from './profile.module.css';

const StaticMap = lazy(() => import('@/components/map/static-map'));

/** The clinician map's zoom. */
export const CLINICIAN_MAP_ZOOM = 18;

/** The fixed core services every clinician profile lists. */
export const CORE_SERVICES = [
  'Wellness Checks and Preventative Care',
  'Chronic Disease Management',
  '24/7 Access to Manage your Care',
  'Sick Care',
  'Mental Health Guidance',
] as const;

/** The fixed modality blurbs. */
export const MODALITY_BLURBS = [
  { title: 'At-Clinic', Icon: ClinicIcon, text: 'Visit your provider in person at the clinic, with unhurried appointments and little or no waiting.' },
  { title: 'Virtual', Icon: VideoIcon, text: 'See your provider by video from home or work for many everyday health needs.' },
  { title: 'Text/Chat', Icon: ChatIcon, text: 'Message your care team with questions, photos and follow-ups, and get answers quickly.' },
  { title: 'Phone', Icon: PhoneIcon, text: 'Call your provider directly to talk through symptoms, results and next steps.' },
  { title: 'At Work', Icon: BriefcaseIcon, text: 'See the provider at your workplace on the days they are on site.' },
] as const;

type ClinicianTab = 'info' | 'services' | 'locations';

interface ClinicianProfileProps {
  clinicianId: number;
  /**
   * Select on one of the clinician's clinics (shown signed out): the route runs the employer
   * prompt and the enrolment flow, which stores the clinic and goes to /register.
   */
  onSelect: (clinic: ClinicianClinic) => void;
  /** A selection is under way: Select waits. */
  selecting?: boolean;
}

/** /marketplace/clinician/details/{id}: a clinician's profile. */
export function ClinicianProfile({ clinicianId, onSelect, selecting = false }: ClinicianProfileProps) {
  const origin = useMemo(() => lastSearchOrigin.get(), []);
  const clinician = useClinician(clinicianId, origin);
  const signedIn = useSignedIn();
  const [tab, setTab] = useState<ClinicianTab>('info');

  if (clinician.isPending) return <Spinner label="Loading clinician" />;
  if (clinician.isError) {
    return <MarketplaceLoadError className={styles.page} title={isApiError(clinician.error, 404) ? 'Provider not found' : 'Failed to get Provider details'} />;
  }
  const person = clinician.data;
  const homeCare = person.clinics.some((clinic) => clinic.homeCare);
  const tabs = [
    { key: 'info' as const, label: 'Info' },
    { key: 'services' as const, label: 'Services' },
    { key: 'locations' as const, label: 'Locations', count: person.clinics.length },
  ];
  const gender = genderLabel(person.gender ?? person.details.gender);

  return (
    <div className={styles.page}>
      <ProfileToolbar
        title={person.providerName}
        favorite={person.favorite}
        favoriteRequest={(favorite) => ({ entity: 'provider', provider: person.id, favorite })}
        extra={
          signedIn ? null : (
            <LinkButton to={paths.login.path} variant="secondary" size="sm">
              Login
            </LinkButton>
          )
        }
      />
      <section className={styles.hero} aria-labelledby="clinician-name">
        <LogoAvatar name={person.providerName} logo={person.logo} size={80} shape="round" />
        <div className={styles.heroBody}>
          <h1 id="clinician-name">
            {person.providerName}
            {person.credentials ? `, ${person.credentials}` : ''}
          </h1>
          {person.category ? <p className={styles.subtitle}>{person.category}</p> : null}
          <div className={styles.badges}>
            <span className={styles.trusted}>
              <ShieldCheckIcon size={16} /> Trusted Partner
            </span>
            <span className={person.newPatients ? styles.accepting : styles.closed}>
              {person.newPatients ? 'Next day appointments typically available' : 'Not accepting new patients'}
            </span>
            <StaleBadge lastVerified={person.lastVerified} />
          </div>
          <VerifiedLine lastVerified={person.lastVerified} />
          <dl className={styles.meta}>
            {gender ? (
              <div>
                <dt>Gender</dt>
                <dd>{gender}</dd>
              </div>
            ) : null}
            {person.details.NPI ? (
              <div>
                <dt>NPI</dt>
                <dd>{person.details.NPI}</dd>
              </div>
            ) : null}
          </dl>
          {/* The ways of care of the places they work, as their cards show them (the defaults when none is listed). */}
          <CareModalities modality={person.careModality ?? defaultModalities(homeCare)} homeCare={homeCare} />
        </div>
      </section>
      <div>
        <div className={styles.tabsWrap}>
          <Tabs tabs={tabs} active={tab} onChange={setTab} label="Clinician details" idPrefix="clinician" />
        </div>
        <div role="tabpanel" id={`clinician-panel-${tab}`} aria-labelledby={`clinician-tab-${tab}`} className={styles.panel}>
          {tab === 'info' ? (
            <>
              <section className={styles.section}>
                <h2>About</h2>
                {person.details.description ? <CollapsibleText text={person.details.description} /> : <p className={styles.muted}>No description yet.</p>}
              </section>
              <AccessFacts languages={person.languages} telehealth={person.telehealth} />
              <section className={styles.section}>
                <h2>Ways to get care</h2>
                <ul className={styles.blurbs}>
                  {MODALITY_BLURBS.map(({ title, Icon, text }) => (
                    <li key={title}>
                      <strong>
                        <Icon size={18} />
                        {title}
                      </strong>
                      <p>{text}</p>
                    </li>
                  ))}
                </ul>
              </section>
            </>
          ) : null}
          {tab === 'services' ? (
            <section className={styles.section}>
              <h2>Core services</h2>
              <ul className={styles.plainList}>
                {CORE_SERVICES.map((service) => (
                  <li key={service}>
                    <CheckIcon size={18} />
                    {service}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {tab === 'locations' ? <LocationsPanel person={person} signedIn={signedIn} onSelect={onSelect} selecting={selecting} /> : null}
        </div>
      </div>
    </div>
  );
}

function LocationsPanel({ person, signedIn, onSelect, selecting }: { person: Clinician; signedIn: boolean; onSelect: (clinic: ClinicianClinic) => void; selecting: boolean }) {
  const navigate = useNavigate();
  const markers = useMemo(
    () =>
      person.clinics.map((clinic) => ({
        lat: clinic.coordinates.lat,
        lng: clinic.coordinates.lng,
        name: clinic.providerName,
        onActivate: () => navigate(paths.clinicProfile.getHref(clinic.id, clinic.locationId)),
      })),
    [person.clinics, navigate],
  );
  if (person.clinics.length === 0) {
    return <p className={styles.muted}>{person.providerName} has not listed any clinics yet.</p>;
  }
  return (
    <section className={styles.section}>
      <h2>Locations</h2>
      <ul className={styles.section} style={{ margin: 0, padding: 0, listStyle: 'none' }}>
        {person.clinics.map((clinic) => {
          const distance = formatMiles(clinic.distance);
          return (
            <li key={clinic.locationId} className={styles.clinicRow}>
              <LogoAvatar name={clinic.providerName} logo={clinic.logo} size={44} />
              <div>
                <strong>{clinic.providerName}</strong>
                <span className={styles.line}>
                  {clinic.address1 || clinic.address}, {clinic.city}, {clinic.state} {clinic.zip}
                </span>
                <span className={styles.line}>
                  {distance ? `${distance} · ` : ''}
                  {clinic.homeCare ? 'Home care' : 'At-clinic'}
                </span>
              </div>
              {!signedIn ? (
                <Button size="sm" onClick={() => onSelect(clinic)} disabled={selecting}>
                  Select
                </Button>
              ) : null}
              <LinkButton size="sm" variant="secondary" to={paths.clinicProfile.getHref(clinic.id, clinic.locationId)}>
                View Details
              </LinkButton>
            </li>
          );
        })}
      </ul>
      <Suspense fallback={<Spinner label="Loading map" />}>
        <StaticMap markers={markers} zoom={CLINICIAN_MAP_ZOOM} label={`Map of ${person.providerName}'s clinics`} />
      </Suspense>
    </section>
  );
}
