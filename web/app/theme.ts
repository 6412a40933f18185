import { Anchor, createTheme, Notification, type CSSVariablesResolver, type ModalProps } from '@mantine/core';

/**
 * Indigo at shade 8 in light mode keeps filled buttons and light badges above WCAG AA contrast
 * (the default shade 6 does not reach 4.5:1 with white text).
 */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 8, dark: 6 },
  autoContrast: true,
  luminanceThreshold: 0.35,
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  cursorType: 'pointer',
  components: {
    // Links inside text must be distinguishable without colour (WCAG 1.4.1).
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // A plain object, not Modal.extend(): importing Modal here would put it in every page's bundle.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } satisfies Partial<ModalProps> },
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      styles: { description: { color: 'var(--mantine-color-gray-7)' } },
    }),
  },
});

/** Dimmed and error text darker than Mantine's defaults, so they stay readable (WCAG AA). */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Error text and invalid inputs: red 9 reaches 4.5:1 on white, the default red 6 does not.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
