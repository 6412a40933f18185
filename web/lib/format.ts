const integer = new Intl.NumberFormat('en-US');
const compactUsd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});

export function formatCount(value: number): string {
  return integer.format(value);
}

/** Revenue in USD, compact ($24.5K); a dash when absent (spec §9). */
export function formatUsdCompact(value: number | null | undefined): string {
  return value == null ? '—' : compactUsd.format(value);
}

/** A duration in seconds as the two largest units: "3d 4h", "2h 15m", "45s". */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m`;
  return `${s}s`;
}
