import { Anchor, Box, Container, Group } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Brand } from './brand';

type PortalFrameProps = {
  children: ReactNode;
  /** Word beside the logo (e.g. 'Super Admin'). */
  areaName?: string;
  /** Show a 'Back to Home' link in the top bar. */
  withBackLink?: boolean;
  /** Page background; the sign-in screens each have their own tint. */
  background?: string;
};

/** The frame of the sign-in and account screens: a top bar with the word mark, then the page. */
export function PortalFrame({ children, areaName, withBackLink = true, background = 'var(--mantine-color-gray-0)' }: PortalFrameProps) {
  return (
    <Box mih="100vh" style={{ background }}>
      <Box component="header">
        <Container size="lg" py="md">
          <Group justify="space-between">
            <Brand suffix={areaName} />
            {withBackLink ? (
              <Anchor component={Link} to="/" fw={600} c="dark.7" underline="hover">
                <Group gap={4} wrap="nowrap">
                  <IconArrowLeft size={16} aria-hidden />
                  Back to Home
                </Group>
              </Anchor>
            ) : null}
          </Group>
        </Container>
      </Box>
      <Container component="main" size="lg" pb="xl">
        {children}
      </Container>
    </Box>
  );
}
