/**
 * A clinic's week of opening hours as members read it, and whether it is open now in the clinic's
 * own time zone (the browser's time zone data, `Intl`).
 */
import type { OpeningRange, WeeklyHours } from '@/api/market/profile-types';

export const WEEKDAYS: { code: keyof WeeklyHours; name: string }[] = [
  { code: 'mon', name: 'Monday' },
  { code: 'tue', name: 'Tuesday' },
  { code: 'wed', name: 'Wednesday' },
  { code: 'thu', name: 'Thursday' },
  { code: 'fri', name: 'Friday' },
  { code: 'sat', name: 'Saturday' },
  { code: 'sun', name: 'Sunday' },
];

const SHORT_DAYS: Record<string, keyof WeeklyHours> = { Mon: 'mon', Tue: 'tue', Wed: 'wed', Thu: 'thu', Fri: 'fri', Sat: 'sat', Sun: 'sun' };

function minutes(time: string): number {
  const [hours, mins] = time.split(':').map(Number);
  return (hours ?? 0) * 60 + (mins ?? 0);
}

/** `08:00` as `8:00 AM`, `24:00` as `midnight`. */
export function formatTime(time: string): string {
  const total = minutes(time);
  if (total === 24 * 60 || total === 0) return total === 0 ? '12:00 AM' : 'midnight';
  const hours = Math.floor(total / 60);
  const suffix = hours < 12 ? 'AM' : 'PM';
  const twelve = hours % 12 === 0 ? 12 : hours % 12;
  return `${twelve}:${String(total % 60).padStart(2, '0')} ${suffix}`;
}

/** A day's ranges as text: `8:00 AM – 12:00 PM, 1:00 PM – 5:00 PM`, or `Closed`. */
export function formatDay(ranges: OpeningRange[]): string {
  if (ranges.length === 0) return 'Closed';
  return ranges.map((range) => `${formatTime(range.opens)} – ${formatTime(range.closes)}`).join(', ');
}

/** The weekday and minutes after midnight at `now` in `timeZone`. */
export function localTime(timeZone: string, now: Date): { day: keyof WeeklyHours; minutes: number } | null {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now);
    const part = (type: string) => parts.find((item) => item.type === type)?.value ?? '';
    const day = SHORT_DAYS[part('weekday')];
    if (!day) return null;
    return { day, minutes: Number(part('hour')) * 60 + Number(part('minute')) };
  } catch {
    return null;
  }
}

/** Whether the clinic is open at `now` in its own time zone; null when that cannot be told. */
export function isOpenNow(hours: WeeklyHours, timeZone: string, now: Date = new Date()): boolean | null {
  const local = localTime(timeZone, now);
  if (!local) return null;
  return hours[local.day].some((range) => minutes(range.opens) <= local.minutes && local.minutes < minutes(range.closes));
}

/** The time zone's short name at `now` (`MST`, `EDT`), for "hours are in ..." */
export function timeZoneName(timeZone: string, now: Date = new Date()): string {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }).formatToParts(now);
    return parts.find((item) => item.type === 'timeZoneName')?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}
