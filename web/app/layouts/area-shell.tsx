import { AppShell, Burger, Button, Group, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogout } from '@tabler/icons-react';
import { Suspense, useState, type ReactNode } from 'react';
import { Link, Outlet, useMatch, useNavigate } from 'react-router';
import { Brand } from '../../components/ui/brand';
import { PageLoader } from '../../components/ui/page-loader';
import { canUseScreen, screenOf } from '../../../domain/area-permissions';
import { useAuth } from '../../features/auth/hooks/use-auth';
import { IMPERSONATION_BANNER_HEIGHT, ImpersonationBanner } from './impersonation-banner';

export type AreaNavItem = { label: string; to: string; icon: ReactNode };

function AreaNavLink({ item, onNavigate }: { item: AreaNavItem; onNavigate: () => void }) {
  const active = !!useMatch({ path: item.to, end: true });
  return (
    <NavLink
      component={Link}
      to={item.to}
      label={item.label}
      leftSection={item.icon}
      active={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
      variant="light"
    />
  );
}

type AreaShellProps = {
  /** Shown beside the word mark: which area this is. */
  areaName: string;
  homePath: string;
  loginPath: string;
  navItems: AreaNavItem[];
  /** Extra controls in the header on wide screens (and atop the navigation on narrow ones). */
  headerControls?: ReactNode;
  /** Shown above every screen of the area (e.g. a selection error). */
  banner?: ReactNode;
};

/** The frame of a signed-in area: header, navigation, sign-out, and the screen. */
export function AreaShell({ areaName, homePath, loginPath, navItems, headerControls, banner }: AreaShellProps) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { user, role, signOut, impersonation } = useAuth();
  // Only the screens this role may use (the server refuses the others anyway).
  const visibleItems = navItems.filter((item) => {
    const screen = screenOf(item.to);
    return !screen || canUseScreen(role, screen);
  });
  const navigate = useNavigate();
  const [isSigningOut, setIsSigningOut] = useState(false);

  const handleSignOut = async () => {
    setIsSigningOut(true);
    await signOut();
    setIsSigningOut(false);
    navigate(loginPath, { replace: true });
  };

  return (
    <AppShell
      // While acting as a member, the impersonation banner sits above the header on every screen.
      header={{ height: 64 + (impersonation ? IMPERSONATION_BANNER_HEIGHT : 0) }}
      navbar={{ width: 250, breakpoint: 'md', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <AppShell.Header>
        <ImpersonationBanner />
        <Group h={64} px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="md" size="sm" aria-label="Toggle navigation" />
            <Brand to={homePath} suffix={areaName} />
          </Group>
          <Group gap="md" wrap="nowrap">
            {headerControls ? (
              <Group gap="sm" visibleFrom="md" wrap="nowrap">
                {headerControls}
              </Group>
            ) : null}
            {user ? (
              <Text size="sm" c="dimmed" visibleFrom="lg" truncate maw={220}>
                {user.email}
              </Text>
            ) : null}
            <Button
              variant="default"
              size="sm"
              leftSection={<IconLogout size={16} aria-hidden />}
              onClick={handleSignOut}
              loading={isSigningOut}
            >
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label={`${areaName} navigation`}>
        {headerControls ? (
          <Stack gap="sm" hiddenFrom="md" mb="md">
            {headerControls}
          </Stack>
        ) : null}
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap={2}>
            {visibleItems.map((item) => (
              <AreaNavLink key={item.to} item={item} onNavigate={close} />
            ))}
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main>
        {banner}
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
