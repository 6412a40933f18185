// How the settings and error screens write dates, prices and counts.

const dateTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
const dateTimeSeconds = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** '23 Nov 2026, 14:05' in the viewer's time zone. */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

/** '23 Nov 2026, 14:05:09' in the viewer's time zone (error events). */
export const formatDateTimeSeconds = (iso: string) => dateTimeSeconds.format(new Date(iso));

/** '$99.00 / month'; other currencies by their code. */
export function formatPlanPrice(plan: { priceCents: number; currency: string; interval: string }): string {
  const amount = plan.priceCents / 100;
  let price: string;
  try {
    price = plan.currency === 'USD' ? usd.format(amount) : new Intl.NumberFormat('en-US', { style: 'currency', currency: plan.currency }).format(amount);
  } catch {
    price = `${amount.toFixed(2)} ${plan.currency}`;
  }
  return `${price} / ${plan.interval}`;
}
