import { Anchor, Box, Container, Group, Text } from '@mantine/core';
import { Link, Outlet, useMatch } from 'react-router';
import { Suspense } from 'react';
import { Brand } from '../../components/ui/brand';
import { PageLoader } from '../../components/ui/page-loader';
import { paths } from '../paths';
import { I18nProvider, useT } from '../../i18n/index';
import { LanguagePicker } from '../../i18n/language-picker';
import { ImpersonationBanner } from './impersonation-banner';

const links = [
  { key: 'layout.bookSlot', to: paths.book.landing },
  { key: 'layout.help', to: paths.book.help },
  { key: 'layout.terms', to: paths.book.terms },
];

function HeaderLink({ label, to }: { label: string; to: string }) {
  const active = !!useMatch({ path: to, end: true });
  return (
    <Anchor component={Link} to={to} underline="hover" fw={active ? 700 : 500} c={active ? 'indigo.9' : 'dark.7'} aria-current={active ? 'page' : undefined}>
      {label}
    </Anchor>
  );
}

/** /book/*: the public booking portal, no sign-in, in the haulier's language (issue 27). */
export function PublicLayout() {
  return (
    <I18nProvider fallback={<PageLoader minHeight="100vh" />}>
      <PortalFrame />
    </I18nProvider>
  );
}

function PortalFrame() {
  const { t } = useT('portal');
  return (
    <Box mih="100vh" display="flex" style={{ flexDirection: 'column' }}>
      <ImpersonationBanner />
      <Box component="header" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }} bg="white">
        {/* 64 px high; on a phone the links and the language picker wrap to a second row rather
            than push the page wider than the screen (German and Polish links are long). */}
        <Container size="lg" mih={64} py={6} display="flex" style={{ alignItems: 'center' }}>
          <Group w="100%" justify="space-between" wrap="wrap" style={{ rowGap: 4 }}>
            <Brand to={paths.home} suffix={t('layout.suffix')} />
            <Group gap="md" wrap="wrap" ml="auto" style={{ rowGap: 4 }}>
              <Group component="nav" aria-label={t('layout.nav')} gap="md" wrap="nowrap">
                {links.map((link) => (
                  <HeaderLink key={link.to} label={t(link.key)} to={link.to} />
                ))}
              </Group>
              <LanguagePicker />
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
              {t('layout.footer')}
            </Text>
            <Group gap="md">
              <Anchor component={Link} to={paths.book.terms} size="sm" underline="hover">
                {t('layout.terms')}
              </Anchor>
              <Anchor component={Link} to={paths.book.help} size="sm" underline="hover">
                {t('layout.help')}
              </Anchor>
              <Anchor component={Link} to={paths.home} size="sm" underline="hover">
                {t('layout.home')}
              </Anchor>
            </Group>
          </Group>
        </Container>
      </Box>
    </Box>
  );
}
