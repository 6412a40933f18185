// How the billing screens write money, dates and limits.

import { PLAN_LIMIT_LABELS, type PlanLimitKind } from '../../../../domain/billing';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const count = new Intl.NumberFormat('en-US');

/** '$1,299.00'. */
export function formatUsd(value: number): string {
  return usd.format(value);
}

/** '23 Nov 2026' (UTC: billing months and due dates are UTC days). */
export function formatBillingDay(iso: string | null): string {
  return iso ? day.format(new Date(iso)) : '—';
}

/** '12', or 'Unlimited'. */
export function formatLimit(value: number | null): string {
  return value === null ? 'Unlimited' : count.format(value);
}

/** 'Alpha Freight uses 3 bays; the plan allows 1'. */
export function overLimitText(item: { orgName: string; kind: PlanLimitKind; used: number; allowed: number }): string {
  const label = PLAN_LIMIT_LABELS[item.kind];
  return `${item.orgName} uses ${count.format(item.used)} ${item.used === 1 ? label.one : label.many}; the plan allows ${count.format(item.allowed)}`;
}

export const INVOICE_STATUS_COLORS: Record<string, string> = { paid: 'green', open: 'orange', void: 'gray' };
/** Light badges keep dark text (4.5:1 on every light tint). */
export const badgeStyles = { root: { color: 'var(--mantine-color-dark-7)' } };
export const alertStyles = { title: { color: 'var(--mantine-color-text)' } };
