import type { OpeningRange, WeeklyHours } from '@/api/market/profile-types';
import { Button } from '@/components/ui/button';
import { WEEKDAYS } from '@/lib/opening-hours';
import { emptyWeek, withAnotherRange } from '../utils/listing-draft';
import styles from './listings.module.css';

interface HoursEditorProps {
  hours: WeeklyHours | null;
  onChange: (hours: WeeklyHours | null) => void;
  /** Names the fieldset for its location (several editors may be open). */
  idPrefix: string;
}

/** A week of opening hours: per weekday, several ranges or closed. */
export function HoursEditor({ hours, onChange, idPrefix }: HoursEditorProps) {
  if (hours === null) {
    return (
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>Opening hours</legend>
        <p className={styles.muted}>No hours listed: members see that you have not given them.</p>
        <div>
          <Button variant="secondary" size="sm" onClick={() => onChange(emptyWeek())}>
            Add opening hours
          </Button>
        </div>
      </fieldset>
    );
  }
  const setDay = (day: keyof WeeklyHours, ranges: OpeningRange[]) => onChange({ ...hours, [day]: ranges });
  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>Opening hours</legend>
      <p className={styles.muted}>In the clinic's time zone. A day without hours is closed; add a second range for a lunch break.</p>
      <div className={styles.week}>
        {WEEKDAYS.map(({ code, name }) => {
          const ranges = hours[code];
          return (
            <div key={code} className={styles.day} data-testid={`hours-${code}`}>
              <span className={styles.dayName}>{name}</span>
              <div className={styles.ranges}>
                {ranges.length === 0 ? <span className={styles.muted}>Closed</span> : null}
                {ranges.map((range, index) => (
                  <span key={index} className={styles.range}>
                    <label className="visually-hidden" htmlFor={`${idPrefix}-${code}-${index}-opens`}>
                      {name} opens
                    </label>
                    <input
                      id={`${idPrefix}-${code}-${index}-opens`}
                      type="time"
                      className={styles.time}
                      value={range.opens}
                      onChange={(event) => setDay(code, ranges.map((item, at) => (at === index ? { ...item, opens: event.target.value } : item)))}
                    />
                    <span aria-hidden="true">–</span>
                    <label className="visually-hidden" htmlFor={`${idPrefix}-${code}-${index}-closes`}>
                      {name} closes
                    </label>
                    <input
                      id={`${idPrefix}-${code}-${index}-closes`}
                      type="time"
                      className={styles.time}
                      value={range.closes === '24:00' ? '23:59' : range.closes}
                      onChange={(event) => setDay(code, ranges.map((item, at) => (at === index ? { ...item, closes: event.target.value } : item)))}
                    />
                    <Button variant="ghost" size="sm" aria-label={`Remove ${name} ${range.opens} to ${range.closes}`} onClick={() => setDay(code, ranges.filter((_, at) => at !== index))}>
                      Remove
                    </Button>
                  </span>
                ))}
              </div>
              <Button variant="ghost" size="sm" aria-label={`Add hours on ${name}`} onClick={() => setDay(code, withAnotherRange(ranges))}>
                Add hours
              </Button>
            </div>
          );
        })}
      </div>
      <div>
        <Button variant="ghost" size="sm" onClick={() => onChange(null)}>
          Remove all hours
        </Button>
      </div>
    </fieldset>
  );
}
