/**
 * Find care (2.22): the member selector with the provider and membership, the search by ZIP code
 * with its filters and the provider switch (which really saves through set/provider), and Contact Us.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ChevronLeftIcon, FilterIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { Button, LinkButton } from '@/components/ui/button';
import { CannotEnrolDialog } from '@/components/ui/cannot-enrol-dialog';
import { Card, DetailList } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { CheckboxField, SelectField, TextField } from '@/components/ui/field';
import { ProviderSummary } from '@/components/ui/provider-summary';
import { Spinner } from '@/components/ui/spinner';
import { StatusDot } from '@/components/ui/status-dot';
import { env } from '@/config/env';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { formatMiles } from '@/lib/format';
import type { MarketItem } from '@/api/market/types';
import { accountStatus, fullName, GENDER_LABELS, useMemberInfo, type Member, type Status } from '@/lib/member';
import { sessionValue } from '@/lib/storage';
import { emailError, isoToUsDate, MESSAGES, requiredError } from '@/lib/validation';
import { useSetProvider } from '@/api/enrolment/set-provider';
import { CREDENTIALS, defaultFilters, MAX_DISTANCE, readFilters, writeFilters, zipError } from '../utils/filters';
import { useOrganizationNames } from '@/api/market/get-organization-names';
import { useProviderSearch } from '../utils/search-near-zip';
import styles from './find-care.module.css';

export interface CarePerson {
  /** Null for the subscriber. */
  dependentId: number | null;
  name: string;
  provider: string | null;
  status: Status | null;
  nextVisit: string | null;
}

/** The subscriber and their family, as the member dropdown lists them. */
export function carePeople(member: Member): CarePerson[] {
  return [
    { dependentId: null, name: fullName(member), provider: member.location?.name ?? null, status: member.subscription?.status ?? null, nextVisit: null },
    ...(member.family ?? [])
      .filter((person) => person.id !== member.id)
      .map((person) => ({
        dependentId: person.id,
        name: fullName(person),
        provider: person.location?.name ?? person.provider?.companyName ?? null,
        status: person.subscription?.status ?? null,
        nextVisit: person.nextVisit ?? null,
      })),
  ];
}

function useMemberPage() {
  const member = useMemberInfo();
  const [selected, setSelected] = useState(() => sessionValue.get<number>('findCarePerson') ?? -1);
  useEffect(() => sessionValue.set('findCarePerson', selected), [selected]);
  return { member, selected, setSelected };
}

function MemberSelect({ people, selected, onChange }: { people: CarePerson[]; selected: number; onChange: (value: number) => void }) {
  return (
    <SelectField
      label="Member"
      value={String(selected)}
      onChange={(value) => onChange(Number(value))}
      options={people.map((person) => ({ value: String(person.dependentId ?? -1), label: `${person.name} — ${person.provider ?? 'Needs a provider'}` }))}
    />
  );
}

const MESSAGES_ROTATION = [
  'Your membership includes unlimited visits with your primary care provider.',
  'Most members hear back from their clinic within one business day.',
  'Add your family members so everyone has a provider.',
];

/** /find-care: the member selector and their provider, next visit and membership status. */
export function FindCarePage() {
  const { member, selected, setSelected } = useMemberPage();
  const [tip, setTip] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setTip((value) => (value + 1) % MESSAGES_ROTATION.length), 6000);
    return () => window.clearInterval(timer);
  }, []);
  if (member.isPending) return <Spinner label="Loading your information" />;
  if (!member.data) return <Alert tone="error">{errorText(member.error, MESSAGES.tryLater)}</Alert>;
  const people = carePeople(member.data);
  const person = people.find((item) => (item.dependentId ?? -1) === selected) ?? people[0]!;
  const status = accountStatus(person.status);
  return (
    <div className={styles.page}>
      <h1>Find Care</h1>
      <MemberSelect people={people} selected={person.dependentId ?? -1} onChange={setSelected} />
      <Link to={paths.findCareSearch.path}>Find Care by Zip Code</Link>
      <Card title="Care">
        <DetailList
          columns={2}
          items={[
            { label: 'Provider', value: person.provider ?? 'Needs a provider' },
            { label: 'Next Visit', value: person.nextVisit ? isoToUsDate(person.nextVisit) : 'Schedule Visit' },
            { label: 'Membership status', value: <StatusDot label={status.label} tone={status.tone} /> },
          ]}
        />
      </Card>
      <section className={styles.tips} aria-label="Rotating Informational Messages" aria-live="polite">
        {MESSAGES_ROTATION[tip]}
      </section>
    </div>
  );
}

type SwitchStep = 'confirm' | 'members' | 'done' | 'error' | null;

/** /find-care/search: providers near a ZIP code; choosing one switches the selected members to it. */
export function FindCareSearchPage() {
  const { member, selected, setSelected } = useMemberPage();
  const filters = readFilters();
  // A ZIP code chosen on the filters screen wins over the member's home ZIP code.
  const [zipInput, setZipInput] = useState(filters.zip.slice(0, 5));
  const [zip, setZip] = useState(filters.zip.slice(0, 5));
  const search = useProviderSearch(zip, filters, member.data?.companyName ?? null);
  const save = useSetProvider();
  const [choice, setChoice] = useState<MarketItem | null>(null);
  const [step, setStep] = useState<SwitchStep>(null);
  const [chosen, setChosen] = useState<number[]>([]);
  const [message, setMessage] = useState('');
  const [cannotEnrol, setCannotEnrol] = useState(false);

  useEffect(() => {
    const home = member.data?.zipCode ?? '';
    if (home && !zip) {
      setZipInput(home);
      setZip(home);
    }
  }, [member.data?.zipCode, zip]);

  if (member.isPending) return <Spinner label="Loading your information" />;
  if (!member.data) return <Alert tone="error">{errorText(member.error, MESSAGES.tryLater)}</Alert>;
  const people = carePeople(member.data);
  const current = people.find((item) => (item.dependentId ?? -1) === selected) ?? people[0]!;

  function pick(provider: MarketItem) {
    if (current.status === 'active') {
      setCannotEnrol(true);
      return;
    }
    setChoice(provider);
    setChosen([current.dependentId ?? -1]);
    setStep('confirm');
  }

  async function switchProviders() {
    if (!choice) return;
    const failures: string[] = [];
    for (const id of chosen) {
      try {
        await save.mutateAsync({ dependentId: id === -1 ? null : id, providerId: choice.id, locationId: choice.locationId, change: true });
      } catch (failure) {
        const name = people.find((person) => (person.dependentId ?? -1) === id)?.name ?? 'this member';
        failures.push(`Something went wrong while selecting for ${name}'s provider. ${errorText(failure, '')}`.trim());
      }
    }
    if (failures.length > 0) {
      setMessage(failures.join('\n'));
      setStep('error');
    } else setStep('done');
  }

  const allSelected = chosen.length === people.length;

  return (
    <div className={styles.page}>
      <Link to={paths.findCare.path} className={styles.back}>
        <ChevronLeftIcon size={18} /> Find Care
      </Link>
      <h1>Find Care by Zip Code</h1>
      <MemberSelect people={people} selected={current.dependentId ?? -1} onChange={setSelected} />
      <form
        className={styles.searchRow}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          setZip(zipInput.trim());
        }}
      >
        <TextField label="Zip code" inputMode="numeric" maxLength={5} value={zipInput} onChange={(value) => setZipInput(value.replace(/\D/g, ''))} />
        <Button type="submit">Search</Button>
        <LinkButton variant="secondary" to={paths.findCareFilters.path} icon={<FilterIcon size={18} />}>
          Filters
        </LinkButton>
      </form>
      {search.isFetching ? <Spinner label="Searching providers" /> : null}
      {search.isError ? <Alert tone="error">{errorText(search.error, MESSAGES.tryLater)}</Alert> : null}
      {search.isSuccess && search.data.length === 0 ? <p className={styles.muted}>No results found!</p> : null}
      <ul className={styles.results}>
        {(search.data ?? []).map((provider) => (
          <li key={`${provider.id}-${provider.locationId}`} className={styles.result}>
            <ProviderSummary provider={{ name: provider.name, logo: provider.logo, address1: provider.address, city: provider.city, state: provider.state, zip: provider.zipCode }} size={48} />
            <div className={styles.resultEnd}>
              {formatMiles(provider.distance) ? <span className={styles.muted}>{formatMiles(provider.distance)}</span> : null}
              <Button size="sm" onClick={() => pick(provider)} disabled={!provider.newPatients}>
                {provider.newPatients ? 'Select' : 'Not accepting new patients'}
              </Button>
            </div>
          </li>
        ))}
      </ul>

      <Dialog
        open={step === 'confirm'}
        title="Change provider?"
        onClose={() => setStep(null)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setStep(null)}>
              Cancel
            </Button>
            <Button onClick={() => setStep('members')}>Continue</Button>
          </>
        }
      >
        <p>
          You are switching to <strong>{choice?.name}</strong>. A provider may be changed once per month.
        </p>
      </Dialog>
      <Dialog
        open={step === 'members'}
        title="Who is switching?"
        onClose={() => setStep(null)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setStep(null)}>
              Cancel
            </Button>
            <Button onClick={() => void switchProviders()} disabled={chosen.length === 0 || save.isPending}>
              Save
            </Button>
          </>
        }
      >
        <div className={styles.stack}>
          <CheckboxField label="Select All" checked={allSelected} onChange={(checked) => setChosen(checked ? people.map((person) => person.dependentId ?? -1) : [])} />
          {people.map((person) => {
            const id = person.dependentId ?? -1;
            return (
              <CheckboxField
                key={id}
                label={`${person.name} (${person.provider ?? 'Needs a provider'})`}
                checked={chosen.includes(id)}
                onChange={(checked) => setChosen((current) => (checked ? [...current, id] : current.filter((value) => value !== id)))}
              />
            );
          })}
        </div>
      </Dialog>
      <Dialog open={step === 'done'} title="Provider changed" onClose={() => setStep(null)} footer={<Button onClick={() => setStep(null)}>Okay</Button>}>
        <p>You now have a pending membership with {choice?.name}</p>
      </Dialog>
      <Dialog open={step === 'error'} title="Oops. Something went wrong" onClose={() => setStep(null)} footer={<Button onClick={() => setStep(null)}>Okay</Button>}>
        <p className={styles.preLine}>{message}</p>
      </Dialog>
      <CannotEnrolDialog open={cannotEnrol} location={current.provider ?? 'your provider'} onClose={() => setCannotEnrol(false)} />
    </div>
  );
}

/**
 * /find-care/search/filters (2.22): distance (default 20 miles, at most 30), zip, provider name,
 * credentials, provider gender and organization.
 */
export function FindCareFiltersPage() {
  const navigate = useNavigate();
  const member = useMemberInfo();
  const [filters, setFilters] = useState(readFilters);
  const [zipTouched, setZipTouched] = useState(false);
  const organizations = useOrganizationNames(member.data?.companyName ?? null, '');
  const zipMessage = zipError(filters.zip);
  return (
    <div className={styles.page}>
      <Link to={paths.findCareSearch.path} className={styles.back}>
        <ChevronLeftIcon size={18} /> Search
      </Link>
      <h1>Filters</h1>
      <Card>
        <label className={styles.range}>
          <span>
            Distance: <strong>{filters.distance} miles</strong>
          </span>
          <input type="range" min={10} max={MAX_DISTANCE} step={5} value={filters.distance} onChange={(event) => setFilters((current) => ({ ...current, distance: Number(event.target.value) }))} />
        </label>
        <TextField
          label="Zip code"
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={10}
          value={filters.zip}
          onChange={(zip) => setFilters((current) => ({ ...current, zip: zip.replace(/[^\d-]/g, '') }))}
          onBlur={() => setZipTouched(true)}
          error={zipTouched ? zipMessage : null}
        />
        <TextField label="Provider name" maxLength={100} value={filters.providerName} onChange={(providerName) => setFilters((current) => ({ ...current, providerName }))} />
        <fieldset className={styles.fieldset}>
          <legend>Credentials</legend>
          {CREDENTIALS.map((credential) => (
            <CheckboxField
              key={credential}
              label={credential}
              checked={filters.credentials.includes(credential)}
              onChange={(checked) =>
                setFilters((current) => ({ ...current, credentials: checked ? [...current.credentials, credential] : current.credentials.filter((value) => value !== credential) }))
              }
            />
          ))}
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend>Provider gender</legend>
          {(['F', 'M'] as const).map((gender) => (
            <CheckboxField
              key={gender}
              label={GENDER_LABELS[gender === 'F' ? 'f' : 'm']}
              checked={filters.genders.includes(gender)}
              onChange={(checked) =>
                setFilters((current) => ({ ...current, genders: checked ? [...current.genders, gender] : current.genders.filter((value) => value !== gender) }))
              }
            />
          ))}
        </fieldset>
        <SelectField
          label="Organization"
          value={filters.organization}
          onChange={(organization) => setFilters((current) => ({ ...current, organization }))}
          options={[
            { value: '', label: organizations.isPending ? 'Loading organizations…' : 'Any organization' },
            ...(filters.organization && !(organizations.data ?? []).includes(filters.organization) ? [{ value: filters.organization, label: filters.organization }] : []),
            ...(organizations.data ?? []).map((name) => ({ value: name, label: name })),
          ]}
        />
        <div className={styles.actions}>
          <Button variant="secondary" onClick={() => setFilters(defaultFilters())}>
            Clear All
          </Button>
          <Button
            disabled={zipMessage !== null}
            onClick={() => {
              writeFilters({ ...filters, zip: filters.zip.trim(), providerName: filters.providerName.trim() });
              navigate(paths.findCareSearch.path);
            }}
          >
            View results
          </Button>
        </div>
      </Card>
    </div>
  );
}

/** /contact-us/index: an email and a message, sent to support through the member's mail app. */
export function ContactUsPage() {
  const member = useMemberInfo();
  const [email, setEmail] = useState('');
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const [sent, setSent] = useState(false);
  const value = email || member.data?.email || '';
  const errors = { email: emailError(value, { invalidMessage: MESSAGES.emailInvalid }), text: requiredError(text) };

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (errors.email || errors.text) return;
    const body = `${text.trim()}\n\nFrom: ${value}`;
    window.location.href = `mailto:${env.supportEmail}?subject=${encodeURIComponent('Member question')}&body=${encodeURIComponent(body)}`;
    setSent(true);
  }

  return (
    <div className={styles.page}>
      <h1>Contact Us</h1>
      <Card>
        <form className={styles.stack} onSubmit={submit} noValidate>
          <TextField label="Email" type="email" value={value} onChange={setEmail} error={touched ? errors.email : null} />
          <label className={styles.textareaLabel}>
            Message
            <textarea className={styles.textarea} rows={6} value={text} onChange={(event) => setText(event.target.value)} aria-invalid={touched && errors.text ? true : undefined} />
          </label>
          {touched && errors.text ? <p className={styles.error}>{errors.text}</p> : null}
          {sent ? <Alert tone="success">Your mail app opened with your message to {env.supportEmail}.</Alert> : null}
          <div className={styles.actions}>
            <Button type="submit">Submit</Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
