
/** Alert titles in the body text colour: Mantine's tinted titles miss AA on the tinted background. */
export const alertStyles = { title: { color: 'var(--mantine-color-text)' } };
