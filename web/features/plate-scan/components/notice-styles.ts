/**
 * Light alerts with their title in near-black: Mantine's light variants colour the title with the
 * alert's colour, under 4.5:1 on its tint for blue, green, orange and red. The icon keeps the colour.
 */
export const NOTICE_STYLES = { title: { color: 'var(--mantine-color-dark-7)' } } as const;
