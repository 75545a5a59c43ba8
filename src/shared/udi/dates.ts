/** Dates of UDI data (GS1, HIBCC, ISBT 128), as ISO dates in UTC. */

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** The ISO date of a year, month (1-12) and day (1 to the month's last; null: the month's last), or null when there is none. */
export function isoDate(year: number, month: number, day: number | null): string | null {
  if (month < 1 || month > 12) return null;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const d = day ?? lastDay;
  if (d < 1 || d > lastDay) return null;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(d, 2)}`;
}

/** The ISO date of a day of the year (1 to 365, or 366 in a leap year), or null when there is none. */
export function dayOfYear(year: number, day: number): string | null {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (day < 1 || day > (leap ? 366 : 365)) return null;
  return new Date(Date.UTC(year, 0, day)).toISOString().slice(0, 10);
}
