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
import { homePathForRole } from '../../../../domain/enums';
import { Brand } from '../../../components/ui/brand';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAuth } from '../../auth/hooks/use-auth';

// The quote form (and its validation) loads when it is first opened, not with the landing page.
const QuoteRequestModal = lazy(() => import('../components/quote-request-modal').then((m) => ({ default: m.QuoteRequestModal })));

const badges = [
  { label: 'Multi-Tenant SaaS', icon: <IconBuildingSkyscraper size={14} aria-hidden /> },
  { label: 'Real-time Operations', icon: <IconClockBolt size={14} aria-hidden /> },
  { label: 'TSR Integration', icon: <IconPlugConnected size={14} aria-hidden /> },
];

const features = [
  {
    title: 'Real-time booking',
    description:
      'Hauliers and tenants request delivery or pickup slots through a public portal, and every screen updates the moment a booking changes.',
    icon: <IconCalendarPlus size={24} />,
  },
  {
    title: 'Automated bay assignment',
    description:
      'Each request gets a bay that fits: vehicle height is checked against bay clearance, and no bay is ever booked twice.',
    icon: <IconRuler2 size={24} />,
  },
  {
    title: 'Analytics and reporting',
    description:
      'Bay utilisation, on-time arrival, dwell and turn time and no-shows by site, bay, tenant and vehicle type, as charts and CSV.',
    icon: <IconChartBar size={24} />,
  },
];

const portals = [
  { title: 'Organization admins', description: 'Bookings, bays, blackouts, tenants and reports.', to: '/orgadmin', icon: <IconUsersGroup size={22} /> },
  { title: 'Dock masters', description: 'Check-ins, plate scanning, bay status and the gate queue.', to: '/dockmaster', icon: <IconTruckLoading size={22} /> },
  { title: 'Platform administrators', description: 'Organizations, plans and billing, usage and audit.', to: '/superadmin', icon: <IconShieldLock size={22} /> },
];

function SignInMenu() {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" rightSection={<IconChevronDown size={16} aria-hidden />}>
          Sign in
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/login">
          Admin sign-in
        </Menu.Item>
        <Menu.Item component={Link} to="/orgadmin">
          Organization admin
        </Menu.Item>
        <Menu.Item component={Link} to="/dockmaster">
          Dock master
        </Menu.Item>
        <Menu.Item component={Link} to="/superadmin">
          Super admin
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function AccountControls() {
  const { session, role, signOut } = useAuth();
  if (!session) return <SignInMenu />;
  const home = homePathForRole(role);
  return (
    <Group gap="xs">
      {home !== '/' ? (
        <Button component={Link} to={home} variant="light">
          Go to dashboard
        </Button>
      ) : null}
      <Button variant="default" onClick={() => void signOut()}>
        Sign out
      </Button>
    </Group>
  );
}

/** Spec §1 landing page: headline, three badges, three feature blurbs, 'Request a Quote'. */
export default function LandingPage() {
  usePageTitle('');
  const [quoteOpened, quote] = useDisclosure(false);
  // Mounted from the first opening on, so closing still animates.
  const [quoteRequested, setQuoteRequested] = useState(false);
  if (quoteOpened && !quoteRequested) setQuoteRequested(true);

  return (
    <Box bg="gray.0" mih="100vh">
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg" h={64}>
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Brand />
            <Group gap="sm" wrap="nowrap">
              <Anchor component={Link} to="/book" fw={600} c="dark.7" visibleFrom="sm" underline="hover">
                Book a Dock Slot
              </Anchor>
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
                    {b.label}
                  </Badge>
                ))}
              </Group>
              <Title order={1} fz={{ base: 34, md: 52 }} lh={1.1}>
                Every loading bay, booked and running on time
              </Title>
              <Text fz="lg" c="dark.6" maw={640}>
                Baywise gives organizations one place to take dock slot requests from hauliers and tenants, assign
                the right bay automatically, run the gate in real time and see how their sites perform.
              </Text>
              <Group gap="sm">
                <Button size="lg" onClick={quote.open}>
                  Request a Quote
                </Button>
                <Button size="lg" variant="default" component={Link} to="/book" rightSection={<IconArrowRight size={18} aria-hidden />}>
                  Book a Dock Slot
                </Button>
              </Group>
            </Stack>
          </Container>
        </Box>

        <Container size="lg" py={56}>
          <Title order={2} ta="center" mb="xl">
            Built for busy docks
          </Title>
          <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
            {features.map((f) => (
              <Paper key={f.title} withBorder radius="lg" p="xl">
                <ThemeIcon size={48} radius="md" variant="light" aria-hidden>
                  {f.icon}
                </ThemeIcon>
                <Title order={3} size="h4" mt="md">
                  {f.title}
                </Title>
                <Text c="dimmed" mt="xs">
                  {f.description}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
        </Container>

        <Box bg="white" py={56} style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
          <Container size="lg">
            <Title order={2} mb="xs">
              Sign in to your workspace
            </Title>
            <Text c="dimmed" mb="lg">
              Hauliers need no account: <Anchor component={Link} to="/book">request a dock slot</Anchor> directly.
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
                        {p.title}
                      </Text>
                      <Text size="sm" c="dimmed">
                        {p.description}
                      </Text>
                    </div>
                  </Group>
                </Paper>
              ))}
            </SimpleGrid>
            <Group mt="lg" gap="xs">
              <IconLogin2 size={18} aria-hidden />
              <Text size="sm">
                Not sure which to use? <Anchor component={Link} to="/login">Admin sign-in</Anchor> takes you to the right area for your role.
              </Text>
            </Group>
          </Container>
        </Box>
      </main>

      <Box component="footer" py="lg" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg">
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              © Baywise — dock and loading-bay booking
            </Text>
            <Group gap="md">
              <Anchor component={Link} to="/book" size="sm" underline="hover">
                Book a Dock Slot
              </Anchor>
              <Anchor component={Link} to="/book/help" size="sm" underline="hover">
                Help
              </Anchor>
              <Anchor component={Link} to="/book/terms" size="sm" underline="hover">
                Terms
              </Anchor>
              <Anchor component={Link} to="/developers" size="sm" underline="hover">
                Developers
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
