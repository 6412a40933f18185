/** Mantine's placeholder grey is too faint on white for WCAG AA; picker inputs render it as text. */
export const placeholderStyles = { placeholder: { color: 'var(--mantine-color-gray-7)' } };

/** Alert titles in the body text colour: Mantine's tinted titles miss AA on the tinted background. */
export const alertStyles = { title: { color: 'var(--mantine-color-text)' } };
