import { useState, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Notice, useNotice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { formatCount } from '@/lib/format';
import { verifiedOn } from '@/lib/listing-freshness';
import { formatDay, WEEKDAYS } from '@/lib/opening-hours';
import { useConfirmListings } from '@/api/listings/confirm-listings';
import { useListingCodes } from '@/api/listings/get-listing-codes';
import { useListings } from '@/api/listings/get-listings';
import type { ClinicianListing, ListingCodes, LocationListing } from '@/api/listings/types';
import { ClinicianEditor } from './clinician-editor';
import { LocationEditor } from './location-editor';
import styles from './listings.module.css';

type Editing = { kind: 'location' | 'clinician'; id: number } | null;

/**
 * /dpc-providers/listings: the organisation's locations and clinicians as members see them, each
 * editable, and "Everything is correct" to confirm the whole listing (docs/listings-contract.md).
 */
export function ListingsPage() {
  const listings = useListings();
  const codes = useListingCodes();
  const confirm = useConfirmListings();
  const notice = useNotice(5000);
  const [editing, setEditing] = useState<Editing>(null);

  if (listings.isPending || codes.isPending) return <Spinner label="Loading your listings" />;
  if (listings.isError || codes.isError) {
    return (
      <div className={styles.page}>
        <Alert tone="error" title="Oops. Something went wrong">
          We could not load your listings. Please reload the page.
        </Alert>
      </div>
    );
  }
  const { organisation, due, locations, clinicians } = listings.data;
  const saved = (message: string) => {
    setEditing(null);
    notice.show(message);
  };

  return (
    <div className={styles.page}>
      <header className={styles.head}>
        <div>
          <h1>Your listings</h1>
          <p className={styles.muted}>
            What members see of {organisation.name}: check it, edit what changed, and confirm. Changes reach the marketplace within seconds.
          </p>
        </div>
      </header>
      {due ? (
        <Alert tone="warning" title="Some listings need your confirmation">
          Listings unconfirmed for more than 90 days are marked below. Members see "Not verified recently" after 120 days.
        </Alert>
      ) : (
        <Alert tone="success" title="Every listing is confirmed">
          Thank you: every listing was confirmed in the last 90 days.
        </Alert>
      )}
      <section className={styles.confirm} aria-labelledby="confirm-title">
        <div>
          <h2 id="confirm-title">Is everything correct?</h2>
          <p className={styles.muted}>Confirms every location and clinician below as they are today.</p>
        </div>
        <Button
          disabled={confirm.isPending}
          onClick={() => confirm.mutate(undefined, { onSuccess: () => notice.show('Thank you: every listing is confirmed as of today.') })}
        >
          {confirm.isPending ? 'Confirming...' : 'Everything is correct'}
        </Button>
      </section>
      {confirm.error ? <Alert tone="error">{confirm.error.message}</Alert> : null}

      <section className={styles.section} aria-labelledby="locations-title">
        <h2 id="locations-title">Locations ({locations.length})</h2>
        <ul className={styles.list}>
          {locations.map((location) => (
            <li key={location.id} className={styles.item} data-testid="listing-location" data-location-id={location.id}>
              <LocationSummary location={location} />
              <Editable
                name={location.locationName}
                open={editing?.kind === 'location' && editing.id === location.id}
                onOpen={() => setEditing({ kind: 'location', id: location.id })}
              >
                <LocationEditor location={location} codes={codes.data} onSaved={saved} onCancel={() => setEditing(null)} />
              </Editable>
            </li>
          ))}
        </ul>
      </section>

      <section className={styles.section} aria-labelledby="clinicians-title">
        <h2 id="clinicians-title">Clinicians ({clinicians.length})</h2>
        {clinicians.length === 0 ? <p className={styles.muted}>No clinician works at your locations yet.</p> : null}
        <ul className={styles.list}>
          {clinicians.map((clinician) => (
            <li key={clinician.id} className={styles.item} data-testid="listing-clinician">
              <ClinicianSummary clinician={clinician} locations={locations} codes={codes.data} />
              <Editable
                name={clinician.name}
                open={editing?.kind === 'clinician' && editing.id === clinician.id}
                onOpen={() => setEditing({ kind: 'clinician', id: clinician.id })}
              >
                <ClinicianEditor clinician={clinician} locations={locations} codes={codes.data} onSaved={saved} onCancel={() => setEditing(null)} />
              </Editable>
            </li>
          ))}
        </ul>
      </section>
      <Notice message={notice.message} />
    </div>
  );
}

/** A listing's editor when open, else its Edit button. */
function Editable({ name, open, onOpen, children }: { name: string; open: boolean; onOpen: () => void; children: ReactNode }) {
  if (open) return <>{children}</>;
  return (
    <div>
      <Button variant="secondary" size="sm" aria-label={`Edit ${name}`} onClick={onOpen}>
        Edit
      </Button>
    </div>
  );
}

function Freshness({ lastVerified, due }: { lastVerified: string | null; due: boolean }) {
  return (
    <span className={due ? styles.due : styles.fresh}>
      {lastVerified ? `Confirmed ${verifiedOn(lastVerified)}` : 'Never confirmed'}
      {due ? ' · needs confirming' : ''}
    </span>
  );
}

function LocationSummary({ location }: { location: LocationListing }) {
  const open = location.hours ? WEEKDAYS.filter((day) => location.hours![day.code].length > 0) : [];
  return (
    <div className={styles.summary}>
      <div className={styles.summaryHead}>
        <h3>
          {location.name} <span className={styles.place}>{location.locationName}</span>
        </h3>
        <Freshness lastVerified={location.lastVerified} due={location.due} />
      </div>
      <p className={styles.muted}>
        {location.address1}, {location.city}, {location.state} {location.zipCode}
      </p>
      <p>
        <strong className={location.acceptingNewPatients ? styles.accepting : styles.closed}>
          {location.acceptingNewPatients ? 'Accepting new patients' : location.panel.full ? 'Not accepting: the panel is full' : 'Not accepting new patients'}
        </strong>
        {' · '}
        {location.panelCapacity === null
          ? `${formatCount(location.panel.members)} members, no capacity set`
          : `${formatCount(location.panel.members)} of ${formatCount(location.panelCapacity)} members`}
      </p>
      <p className={styles.muted}>
        {location.hours === null
          ? 'No hours listed'
          : open.length === 0
            ? 'Closed every day'
            : `${open[0]!.name}: ${formatDay(location.hours[open[0]!.code])}${open.length > 1 ? ` (${open.length} days open)` : ''}`}
      </p>
    </div>
  );
}

function ClinicianSummary({ clinician, locations, codes }: { clinician: ClinicianListing; locations: LocationListing[]; codes: ListingCodes }) {
  const names = new Map(codes.languages.map((language) => [language.code, language.name]));
  const places = locations.filter((location) => clinician.locationIds.includes(location.id)).map((location) => location.locationName);
  return (
    <div className={styles.summary}>
      <div className={styles.summaryHead}>
        <h3>
          {clinician.name}, {clinician.credentials}
        </h3>
        <Freshness lastVerified={clinician.lastVerified} due={clinician.due} />
      </div>
      <p>
        <strong className={clinician.acceptingNewPatients ? styles.accepting : styles.closed}>
          {clinician.acceptingNewPatients ? 'Accepting new patients' : 'Not accepting new patients'}
        </strong>
        {clinician.telehealth ? ' · Telehealth' : ''}
      </p>
      <p className={styles.muted}>
        Speaks {clinician.languages.map((code) => names.get(code) ?? code).join(', ') || '(no languages listed)'} · Works at {places.join(', ') || '(none)'}
      </p>
    </div>
  );
}
