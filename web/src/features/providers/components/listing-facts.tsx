import { CheckIcon } from '@/components/icons/icons';
import { notVerifiedRecently, verifiedOn } from '@/lib/listing-freshness';
import { formatDay, isOpenNow, timeZoneName, WEEKDAYS } from '@/lib/opening-hours';
import type { LabelledCode, NamedLanguage, WeeklyHours } from '@/api/market/profile-types';
import styles from './profile.module.css';

/** "Open now" or "Closed now" in the clinic's own time zone; nothing without hours. */
export function OpenNowBadge({ hours, timeZone, now = new Date() }: { hours?: WeeklyHours | null; timeZone?: string; now?: Date }) {
  if (!hours || !timeZone) return null;
  const open = isOpenNow(hours, timeZone, now);
  if (open === null) return null;
  return (
    <span className={open ? styles.accepting : styles.closed} data-testid="open-now">
      {open ? 'Open now' : 'Closed now'}
    </span>
  );
}

/** "Not verified recently" past 120 days unconfirmed (or never). */
export function StaleBadge({ lastVerified }: { lastVerified?: string | null }) {
  if (!notVerifiedRecently(lastVerified)) return null;
  return (
    <span className={styles.stale} data-testid="not-verified">
      Not verified recently
    </span>
  );
}

/** "Listing verified by the clinic on MM/DD/YYYY". */
export function VerifiedLine({ lastVerified }: { lastVerified?: string | null }) {
  if (!lastVerified) return null;
  return (
    <p className={styles.verified} data-testid="verified-on">
      Listing verified by the clinic on {verifiedOn(lastVerified)}
    </p>
  );
}

/** The week of opening hours, today marked, with the time zone they are in. */
export function OpeningHours({ hours, timeZone, now = new Date() }: { hours?: WeeklyHours | null; timeZone?: string; now?: Date }) {
  if (hours === undefined) return null;
  return (
    <section className={styles.section} aria-labelledby="hours-title">
      <h2 id="hours-title">Hours</h2>
      {hours === null ? (
        <p className={styles.muted}>This clinic has not listed its hours yet.</p>
      ) : (
        <>
          <table className={styles.hours} data-testid="opening-hours">
            <tbody>
              {WEEKDAYS.map((day) => (
                <tr key={day.code}>
                  <th scope="row">{day.name}</th>
                  <td>{formatDay(hours[day.code])}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {timeZone ? <p className={styles.muted}>Times are the clinic's local time ({timeZoneName(timeZone, now)}).</p> : null}
        </>
      )}
    </section>
  );
}

/** Languages spoken, accessibility and telehealth. */
export function AccessFacts({ languages, accessibility, telehealth }: { languages?: NamedLanguage[]; accessibility?: LabelledCode[]; telehealth?: boolean }) {
  if (languages === undefined && accessibility === undefined && telehealth === undefined) return null;
  return (
    <>
      {languages ? (
        <section className={styles.section} aria-labelledby="languages-title">
          <h2 id="languages-title">Languages spoken</h2>
          {languages.length > 0 ? (
            <p data-testid="languages">{languages.map((language) => language.name).join(', ')}</p>
          ) : (
            <p className={styles.muted}>No languages listed yet.</p>
          )}
        </section>
      ) : null}
      {accessibility ? (
        <section className={styles.section} aria-labelledby="accessibility-title">
          <h2 id="accessibility-title">Accessibility</h2>
          {accessibility.length > 0 ? (
            <ul className={styles.plainList} data-testid="accessibility">
              {accessibility.map((code) => (
                <li key={code.code}>
                  <CheckIcon size={18} />
                  {code.label}
                </li>
              ))}
            </ul>
          ) : (
            <p className={styles.muted}>No accessibility options listed yet.</p>
          )}
        </section>
      ) : null}
      {telehealth !== undefined ? (
        <section className={styles.section} aria-labelledby="telehealth-title">
          <h2 id="telehealth-title">Telehealth</h2>
          <p data-testid="telehealth">{telehealth ? 'Offers telehealth visits (video or phone).' : 'Does not offer telehealth visits.'}</p>
        </section>
      ) : null}
    </>
  );
}
