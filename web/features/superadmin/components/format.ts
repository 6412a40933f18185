// How the platform screens write money, dates, sizes and audit actions.

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const dayTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });

/** Revenue in USD, e.g. '$1,396.00'; a dash when there is none (spec §9). */
export function formatUsd(value: number | null | undefined): string {
  return value == null ? '—' : usd.format(value);
}

/** An amount in its own currency ('$99.00' for USD). */
export function formatMoney(value: number, currency: string): string {
  if (currency === 'USD') return usd.format(value);
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(value);
  } catch {
    return `${value.toFixed(2)} ${currency}`;
  }
}

/** '23 Nov 2026'. */
export function formatDay(iso: string): string {
  return day.format(new Date(iso));
}

/** '23 Nov 2026, 14:05'. */
export function formatDayTime(iso: string): string {
  return dayTime.format(new Date(iso));
}

/** 2048 → '2 KB'. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

/** 'organization.suspended' → 'Organization suspended'; 'auth.signed_in' → 'Signed in'. */
export function actionLabel(action: string): string {
  const words = action.replace(/^auth\./, '').replace(/[._]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : action;
}

/** 'org_admin' → 'Org admin'. */
export function roleLabel(role: string | null): string {
  if (!role) return '—';
  const words = role.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
