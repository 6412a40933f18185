import { Anchor, Box, Container, Group, Text } from '@mantine/core';
import { Link, Outlet, useMatch } from 'react-router';
import { Suspense } from 'react';
import { Brand } from '../../components/ui/brand';
import { PageLoader } from '../../components/ui/page-loader';
import { paths } from '../paths';
import { ImpersonationBanner } from './impersonation-banner';

const links = [
  { label: 'Book a slot', to: paths.book.landing },
  { label: 'Help', to: paths.book.help },
  { label: 'Terms', to: paths.book.terms },
];

function HeaderLink({ label, to }: { label: string; to: string }) {
  const active = !!useMatch({ path: to, end: true });
  return (
    <Anchor component={Link} to={to} underline="hover" fw={active ? 700 : 500} c={active ? 'indigo.9' : 'dark.7'} aria-current={active ? 'page' : undefined}>
      {label}
    </Anchor>
  );
}

/** /book/*: the public booking portal, no sign-in. */
export function PublicLayout() {
  return (
    <Box mih="100vh" display="flex" style={{ flexDirection: 'column' }}>
      <ImpersonationBanner />
      <Box component="header" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }} bg="white">
        <Container size="lg" h={64}>
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Brand to={paths.home} suffix="Booking portal" />
            <Group component="nav" aria-label="Booking portal" gap="lg" wrap="nowrap">
              {links.map((link) => (
                <HeaderLink key={link.to} {...link} />
              ))}
            </Group>
          </Group>
        </Container>
      </Box>
      <Box component="main" style={{ flex: 1 }} bg="gray.0">
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </Box>
      <Box component="footer" py="md" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg">
          <Group justify="space-between" gap="xs">
            <Text size="sm" c="dimmed">
              © Baywise — dock and loading-bay booking
            </Text>
            <Group gap="md">
              <Anchor component={Link} to={paths.book.terms} size="sm" underline="hover">
                Terms
              </Anchor>
              <Anchor component={Link} to={paths.book.help} size="sm" underline="hover">
                Help
              </Anchor>
              <Anchor component={Link} to={paths.home} size="sm" underline="hover">
                Home
              </Anchor>
            </Group>
          </Group>
        </Container>
      </Box>
    </Box>
  );
}
