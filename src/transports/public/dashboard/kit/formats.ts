/** How the dashboard writes numbers, durations, shares and dates: one way on every page. */
import { dateTimeFormat, numberFormat } from './intl-formats.ts';

const counts = numberFormat('en-US');
const compact = numberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** 1,234 */
export function formatCount(value: number): string {
  return counts.format(Math.round(value));
}

/** 1.2K, for chart axes. */
export function formatCompact(value: number): string {
  return compact.format(value);
}

/** 42% (a share from 0 to 1). */
export function formatShare(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** 0:42, 12:05, 1:02:03: a position or a length, as players write it. */
export function formatClock(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** 3 h 20 min, 12 min, 45 s: watch time. */
export function formatWatchTime(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  const minutes = Math.round(whole / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${formatCount(hours)} h` : `${formatCount(hours)} h ${minutes % 60} min`;
}

/** Nov 3, 2026 in the workspace's time zone. */
export function formatDate(iso: string, timeZone = 'UTC'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return zoned({ month: 'short', day: 'numeric', year: 'numeric' }, timeZone).format(date);
}

/** Nov 3, 2026, 2:30 PM in the workspace's time zone. */
export function formatDateTime(iso: string, timeZone = 'UTC'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return zoned({ month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' }, timeZone).format(date);
}

/** "Nov 3" for a calendar day (YYYY-MM-DD), for chart axes. */
export function formatDay(day: string): string {
  const date = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return dateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(date);
}

/**
 * An amount as the API answers it, in the currency's minor unit (cents: 4900), written for people:
 * $49.00, ¥4,900. The minor unit's size comes from the currency (two digits for USD, none for JPY).
 */
export function formatMoney(minorUnits: number, currency: string): string {
  try {
    return numberFormat('en-US', { style: 'currency', currency }).format(minorUnits / 10 ** minorUnitDigits(currency));
  } catch {
    return `${minorUnits} ${currency} (minor units)`;
  }
}

/** How many digits a currency's minor unit has: 2 for USD (cents), 0 for JPY; 2 for a code Intl does not know. */
export function minorUnitDigits(currency: string): number {
  try {
    return numberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** The formatter for these parts in the zone, or in UTC when Intl does not know the zone. */
function zoned(parts: Intl.DateTimeFormatOptions, timeZone: string): Intl.DateTimeFormat {
  try {
    return dateTimeFormat('en-US', { ...parts, timeZone });
  } catch {
    return dateTimeFormat('en-US', { ...parts, timeZone: 'UTC' });
  }
}
