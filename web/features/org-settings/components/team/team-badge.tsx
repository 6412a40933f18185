import { Badge } from '@mantine/core';
import type { ReactNode } from 'react';

/** A status on a tint: the colour in the tint and a dot, the text near-black (readable contrast). */
export function TeamBadge({ color, title, children }: { color: string; title?: string; children: ReactNode }) {
  return (
    <Badge
      color={color}
      variant="light"
      title={title}
      styles={{ root: { color: 'var(--mantine-color-dark-7)', flexShrink: 0, minWidth: 'max-content' } }}
      leftSection={<span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: `var(--mantine-color-${color}-7)` }} />}
    >
      {children}
    </Badge>
  );
}
