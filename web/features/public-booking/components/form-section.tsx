import type { ReactNode } from 'react';

export type FormSectionProps = {
  title: string;
  icon?: ReactNode;
  description?: ReactNode;
  children: ReactNode;
};

/**
 * One card of the booking request form: Mantine's Card (with border, radius md, padding lg), a
 * Group of the icon and an h2 Title (size h4), and a small grey Text, written with Mantine's own
 * classes — eight of these are on the form, and Mantine's components cost a slow phone more to
 * render than the markup (issue 25; see light-fields.tsx).
 */
export function FormSection({ title, icon, description, children }: FormSectionProps) {
  const headingId = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section
      data-with-border="true"
      aria-labelledby={headingId}
      className="m_e615b15f mantine-Card-root m_1b7284a3 mantine-Paper-root"
      style={{ '--paper-radius': 'var(--mantine-radius-md)', '--card-padding': 'var(--mantine-spacing-lg)' } as React.CSSProperties}
    >
      <div
        className="m_4081bf90 mantine-Group-root"
        style={
          {
            '--group-gap': 'var(--mantine-spacing-xs)',
            '--group-align': 'center',
            '--group-justify': 'flex-start',
            '--group-wrap': 'nowrap',
            marginBottom: description ? 'calc(0.125rem * var(--mantine-scale))' : 'var(--mantine-spacing-md)',
          } as React.CSSProperties
        }
      >
        {icon}
        <h2
          data-size="h4"
          data-order="2"
          id={headingId}
          className="m_8a5d1357 mantine-Title-root"
          style={{ '--title-fw': 'var(--mantine-h4-font-weight)', '--title-lh': 'var(--mantine-h4-line-height)', '--title-fz': 'var(--mantine-h4-font-size)' } as React.CSSProperties}
        >
          {title}
        </h2>
      </div>
      {description ? (
        <p
          data-size="sm"
          className="mantine-focus-auto m_b6d8b162 mantine-Text-root"
          style={
            {
              '--text-fz': 'var(--mantine-font-size-sm)',
              '--text-lh': 'var(--mantine-line-height-sm)',
              color: 'var(--mantine-color-gray-7)',
              marginBottom: 'var(--mantine-spacing-md)',
            } as React.CSSProperties
          }
        >
          {description}
        </p>
      ) : null}
      {children}
    </section>
  );
}
