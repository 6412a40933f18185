import { Button, type ButtonProps } from '@mantine/core';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';

// The kiosk's building blocks: buttons at least 72 px high with large type (a driver in gloves
// taps them), and the styles shared by its screens.

/** A big touch button. */
export function BigButton({ children, ...props }: ButtonProps & Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps> & { children: ReactNode }) {
  return (
    <Button size="xl" radius="md" fullWidth h="auto" mih={72} py="md" fz={26} fw={700} styles={{ label: { whiteSpace: 'normal', lineHeight: 1.2 } }} {...props}>
      {children}
    </Button>
  );
}

/** Inputs on the kiosk: large text, large targets. */
export const bigInput = {
  size: 'xl' as const,
  styles: { input: { fontSize: 30, minHeight: 72, letterSpacing: '0.05em' }, label: { fontSize: 22, marginBottom: 6 }, error: { fontSize: 18 } },
};
