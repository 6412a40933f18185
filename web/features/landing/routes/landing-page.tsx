import {
  Anchor,
  Badge,
  Box,
  Button,
  Container,
  Group,
  Menu,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconArrowRight,
  IconBuildingSkyscraper,
  IconCalendarPlus,
  IconChartBar,
  IconChevronDown,
  IconClockBolt,
  IconLogin2,
  IconPlugConnected,
  IconRuler2,
  IconShieldLock,
  IconTruckLoading,
  IconUsersGroup,
} from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import landingCatalogue from 'virtual:i18n-namespace/landing';
import { homePathForRole } from '../../../../domain/enums';
import { Brand } from '../../../components/ui/brand';
import { PageLoader } from '../../../components/ui/page-loader';
import { I18nNamespace, I18nProvider, useT } from '../../../i18n/index';
import { LanguagePicker } from '../../../i18n/language-picker';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAuth } from '../../auth/hooks/use-auth';

// The quote form (and its validation) loads when it is first opened, not with the landing page.
const QuoteRequestModal = lazy(() => import('../components/quote-request-modal').then((m) => ({ default: m.QuoteRequestModal })));

// Texts are keys of the landing namespace (domain/i18n/landing), in the visitor's language (issue 27).
const badges = [
  { label: 'badge.multiTenant', icon: <IconBuildingSkyscraper size={14} aria-hidden /> },
  { label: 'badge.realtime', icon: <IconClockBolt size={14} aria-hidden /> },
  { label: 'badge.tsr', icon: <IconPlugConnected size={14} aria-hidden /> },
];

const features = [
  {
    title: 'feature.booking.title',
    description: 'feature.booking.description',
    icon: <IconCalendarPlus size={24} />,
  },
  {
    title: 'feature.assignment.title',
    description: 'feature.assignment.description',
    icon: <IconRuler2 size={24} />,
  },
  {
    title: 'feature.analytics.title',
    description: 'feature.analytics.description',
    icon: <IconChartBar size={24} />,
  },
];

const portals = [
  { title: 'portal.orgAdmins.title', description: 'portal.orgAdmins.description', to: '/orgadmin', icon: <IconUsersGroup size={22} /> },
  { title: 'portal.dockmasters.title', description: 'portal.dockmasters.description', to: '/dockmaster', icon: <IconTruckLoading size={22} /> },
  { title: 'portal.platform.title', description: 'portal.platform.description', to: '/superadmin', icon: <IconShieldLock size={22} /> },
];

function SignInMenu() {
  const { t } = useT('landing');
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" rightSection={<IconChevronDown size={16} aria-hidden />}>
          {t('signIn')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/login">
          {t('menu.admin')}
        </Menu.Item>
        <Menu.Item component={Link} to="/orgadmin">
          {t('menu.orgAdmin')}
        </Menu.Item>
        <Menu.Item component={Link} to="/dockmaster">
          {t('menu.dockmaster')}
        </Menu.Item>
        <Menu.Item component={Link} to="/superadmin">
          {t('menu.superadmin')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function AccountControls() {
  const { t } = useT('landing');
  const { session, role, signOut } = useAuth();
  if (!session) return <SignInMenu />;
  const home = homePathForRole(role);
  return (
    <Group gap="xs">
      {home !== '/' ? (
        <Button component={Link} to={home} variant="light">
          {t('dashboard')}
        </Button>
      ) : null}
      <Button variant="default" onClick={() => void signOut()}>
        {t('signOut')}
      </Button>
    </Group>
  );
}

/** A sentence around a link: no space before a closing full stop (the link ends some languages' sentences). */
const spaceBefore = (text: string) => (/^[.,;:!?]/.test(text) ? '' : ' ');

/** Spec §1 landing page: headline, three badges, three feature blurbs, 'Request a Quote'. */
function LandingPage() {
  const { t } = useT('landing');
  usePageTitle('');
  const [quoteOpened, quote] = useDisclosure(false);
  // Mounted from the first opening on, so closing still animates.
  const [quoteRequested, setQuoteRequested] = useState(false);
  if (quoteOpened && !quoteRequested) setQuoteRequested(true);

  return (
    <Box bg="gray.0" mih="100vh">
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        {/* 64 px high; on a phone the language picker and the sign-in wrap to a second row. */}
        <Container size="lg" mih={64} py={6} display="flex" style={{ alignItems: 'center' }}>
          <Group w="100%" justify="space-between" wrap="wrap" style={{ rowGap: 4 }}>
            <Brand />
            <Group gap="sm" wrap="nowrap" ml="auto">
              <Anchor component={Link} to="/book" fw={600} c="dark.7" visibleFrom="sm" underline="hover">
                {t('book')}
              </Anchor>
              <LanguagePicker />
              <AccountControls />
            </Group>
          </Group>
        </Container>
      </Box>

      <main>
        <Box
          py={{ base: 48, md: 88 }}
          style={{ background: 'linear-gradient(160deg, var(--mantine-color-indigo-0), var(--mantine-color-gray-0) 70%)' }}
        >
          <Container size="lg">
            <Stack gap="lg" maw={760}>
              <Group gap="xs">
                {badges.map((b) => (
                  <Badge key={b.label} variant="outline" size="lg" radius="sm" leftSection={b.icon} bg="white">
                    {t(b.label)}
                  </Badge>
                ))}
              </Group>
              <Title order={1} fz={{ base: 34, md: 52 }} lh={1.1}>
                {t('hero.title')}
              </Title>
              <Text fz="lg" c="dark.6" maw={640}>
                {t('hero.text')}
              </Text>
              <Group gap="sm">
                <Button size="lg" onClick={quote.open}>
                  {t('quote')}
                </Button>
                <Button size="lg" variant="default" component={Link} to="/book" rightSection={<IconArrowRight size={18} aria-hidden />}>
                  {t('book')}
                </Button>
              </Group>
            </Stack>
          </Container>
        </Box>

        <Container size="lg" py={56}>
          <Title order={2} ta="center" mb="xl">
            {t('features.title')}
          </Title>
          <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
            {features.map((f) => (
              <Paper key={f.title} withBorder radius="lg" p="xl">
                <ThemeIcon size={48} radius="md" variant="light" aria-hidden>
                  {f.icon}
                </ThemeIcon>
                <Title order={3} size="h4" mt="md">
                  {t(f.title)}
                </Title>
                <Text c="dimmed" mt="xs">
                  {t(f.description)}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
        </Container>

        <Box bg="white" py={56} style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
          <Container size="lg">
            <Title order={2} mb="xs">
              {t('workspace.title')}
            </Title>
            <Text c="dimmed" mb="lg">
              {t('workspace.hauliersBefore')}{' '}
              <Anchor component={Link} to="/book">
                {t('workspace.hauliersLink')}
              </Anchor>
              {spaceBefore(t('workspace.hauliersAfter'))}
              {t('workspace.hauliersAfter')}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
              {portals.map((p) => (
                <Paper key={p.to} withBorder radius="md" p="lg" component={Link} to={p.to} style={{ textDecoration: 'none', color: 'inherit' }}>
                  <Group wrap="nowrap" align="flex-start">
                    <ThemeIcon size={40} radius="md" variant="light" aria-hidden>
                      {p.icon}
                    </ThemeIcon>
                    <div>
                      <Text fw={700} component="h3" m={0} size="md">
                        {t(p.title)}
                      </Text>
                      <Text size="sm" c="dimmed">
                        {t(p.description)}
                      </Text>
                    </div>
                  </Group>
                </Paper>
              ))}
            </SimpleGrid>
            <Group mt="lg" gap="xs">
              <IconLogin2 size={18} aria-hidden />
              <Text size="sm">
                {t('workspace.unsureBefore')}{' '}
                <Anchor component={Link} to="/login">
                  {t('workspace.unsureLink')}
                </Anchor>{' '}
                {t('workspace.unsureAfter')}
              </Text>
            </Group>
          </Container>
        </Box>
      </main>

      <Box component="footer" py="lg" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg">
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {t('footer.text')}
            </Text>
            <Group gap="md">
              <Anchor component={Link} to="/book" size="sm" underline="hover">
                {t('book')}
              </Anchor>
              <Anchor component={Link} to="/book/help" size="sm" underline="hover">
                {t('footer.help')}
              </Anchor>
              <Anchor component={Link} to="/book/terms" size="sm" underline="hover">
                {t('footer.terms')}
              </Anchor>
              <Anchor component={Link} to="/developers" size="sm" underline="hover">
                {t('footer.developers')}
              </Anchor>
            </Group>
          </Group>
        </Container>
      </Box>

      {quoteRequested ? (
        <Suspense fallback={null}>
          <QuoteRequestModal opened={quoteOpened} onClose={quote.close} />
        </Suspense>
      ) : null}
    </Box>
  );
}

/** `/`, in the visitor's language (the remembered choice, else the browser's), with the picker in its header. */
export default function LandingRoute() {
  return (
    <I18nProvider fallback={<PageLoader minHeight="100vh" />}>
      <I18nNamespace catalogue={landingCatalogue} fallback={<PageLoader minHeight="100vh" />}>
        <LandingPage />
      </I18nNamespace>
    </I18nProvider>
  );
}
