import { Anchor, Button, Grid, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconBook2,
  IconBuildingWarehouse,
  IconCalendarStats,
  IconChartBar,
  IconClipboardCheck,
  IconClock,
  IconLogin2,
  IconTruckDelivery,
  IconUserCheck,
} from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, STORAGE_KEYS } from '../../../../domain/constants';
import { FeatureList, type FeatureItem } from '../../../components/ui/feature-list';
import { PasswordField } from '../../../components/ui/password-field';
import { PortalFrame } from '../../../components/ui/portal-frame';
import { StatCard } from '../../../components/ui/stat-card';
import { errorMessage, isClientError } from '../../../lib/api-client';
import { formatCount } from '../../../lib/format';
import { readJson, removeKey, writeJson } from '../../../lib/storage';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { DemoCredentials } from '../../../components/auth/demo-credentials';
import { ForgotPasswordModal } from '../../../components/auth/forgot-password-modal';
import { recoverPassword } from '../../auth/api/recover-password';
import { useAuth } from '../../auth/hooks/use-auth';
import { AdminGuideModal } from '../components/admin-guide-modal';
import { usePublicOrganizations } from '../api/get-public-organizations';
import { usePublicOverview } from '../api/get-public-overview';
import type { SavedSelection } from '../hooks/org-selection-provider';

const tools: FeatureItem[] = [
  { title: 'Booking Management', description: 'Approve, decline and reschedule dock slot requests.', icon: <IconClipboardCheck size={20} /> },
  { title: 'Bay Configuration', description: 'Clearances, features, blackouts and operating hours per site.', icon: <IconBuildingWarehouse size={20} /> },
  { title: 'Live Operations', description: 'Arrivals, check-ins and bay status in real time.', icon: <IconTruckDelivery size={20} /> },
  { title: 'Reports & Analytics', description: 'Utilisation, on-time arrival, dwell time and no-shows.', icon: <IconChartBar size={20} /> },
];

const orgAdminAccounts = DEMO_ACCOUNTS.filter((a) => a.role === 'org_admin');

/** Spec "Organization admin login page" (/orgadmin). */
export default function OrgAdminLoginPage() {
  usePageTitle('Organization Admin Portal');
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const organizations = usePublicOrganizations();
  const overview = usePublicOverview();
  const [orgId, setOrgId] = useState<string | null>(() => readJson<SavedSelection>(STORAGE_KEYS.selectedOrg)?.id ?? null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [isSigningIn, setIsSigningIn] = useState(false);
  const [forgotOpened, forgot] = useDisclosure(false);
  const [guideOpened, guide] = useDisclosure(false);

  const orgOptions = (organizations.data ?? []).map((org) => ({ value: org.id, label: org.name }));
  const chosenOrg = organizations.data?.find((org) => org.id === orgId) ?? null;
  const isMissing = !chosenOrg || !email.trim() || !password;

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!chosenOrg || isMissing) {
      toast.error('Missing Information', 'Please fill in all fields');
      return;
    }
    setIsSigningIn(true);
    try {
      await signIn({ email: email.trim(), password, orgId: chosenOrg.id });
      const previous = readJson<SavedSelection>(STORAGE_KEYS.selectedOrg);
      if (previous?.id !== chosenOrg.id) removeKey(STORAGE_KEYS.selectedSite);
      writeJson(STORAGE_KEYS.selectedOrg, { id: chosenOrg.id, name: chosenOrg.name });
      toast.success('Login Successful', 'Welcome to your organization dashboard');
      navigate('/org/dashboard', { replace: true });
    } catch (error) {
      if (isClientError(error)) toast.error('Login Failed', error.message);
      else toast.error('Login Error', errorMessage(error, 'An unexpected error occurred. Please try again.'));
      setIsSigningIn(false);
    }
  };

  const o = overview.data;
  const overviewCards = [
    { label: 'Bookings today', value: o?.bookingsToday, icon: <IconCalendarStats size={18} /> },
    { label: 'Pending requests', value: o?.pendingRequests, icon: <IconClock size={18} /> },
    { label: 'Checked in now', value: o?.checkedInNow, icon: <IconUserCheck size={18} /> },
    { label: 'Active bays', value: o?.activeBays, icon: <IconBuildingWarehouse size={18} /> },
  ];

  return (
    <PortalFrame areaName="Organization Admin" background="linear-gradient(160deg, var(--mantine-color-blue-0), var(--mantine-color-gray-0) 55%)">
      <Grid gutter="xl" pt="md">
        <Grid.Col span={{ base: 12, md: 7 }} order={{ base: 2, md: 1 }}>
          <Stack gap="lg">
            <div>
              <Title order={1}>Organization Admin Portal</Title>
              <Text c="dimmed" mt="xs" maw={560}>
                Manage your sites, bays, bookings and team from one dashboard.
              </Text>
            </div>
            <section aria-labelledby="tools-heading">
              <Title order={2} size="h4" id="tools-heading" mb="sm">
                Admin tools
              </Title>
              <FeatureList items={tools} />
            </section>
            <section aria-labelledby="overview-heading">
              <Title order={2} size="h4" id="overview-heading" mb="sm">
                Today&apos;s Overview
              </Title>
              <SimpleGrid cols={{ base: 2, sm: 4, md: 2, xl: 4 }} spacing="sm">
                {overviewCards.map((card) => (
                  <StatCard
                    key={card.label}
                    label={card.label}
                    value={card.value === undefined ? '' : formatCount(card.value)}
                    icon={card.icon}
                    isLoading={overview.isPending}
                    isError={overview.isError}
                  />
                ))}
              </SimpleGrid>
            </section>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }} order={{ base: 1, md: 2 }}>
          <Stack gap="md">
            <Paper withBorder shadow="sm" radius="lg" p="xl">
              <form onSubmit={handleSubmit} noValidate>
                <Stack gap="md">
                  <Title order={2} size="h3">
                    Admin sign-in
                  </Title>
                  <Select
                    label="Organization"
                    placeholder={organizations.isPending ? 'Loading organizations…' : 'Select your organization'}
                    data={orgOptions}
                    value={chosenOrg?.id ?? null}
                    onChange={setOrgId}
                    searchable
                    nothingFoundMessage="No organization found"
                    error={organizations.isError ? errorMessage(organizations.error, 'Failed to load organizations') : undefined}
                    disabled={organizations.isPending}
                  />
                  <TextInput
                    label="Email"
                    type="email"
                    autoComplete="email"
                    placeholder="you@company.com"
                    value={email}
                    onChange={(e) => setEmail(e.currentTarget.value)}
                  />
                  <PasswordField
                    label="Password"
                    autoComplete="current-password"
                    value={password}
                    onChange={(e) => setPassword(e.currentTarget.value)}
                  />
                  <Group justify="flex-end" mt={-8}>
                    <Anchor component="button" type="button" size="sm" onClick={forgot.open}>
                      Forgot password?
                    </Anchor>
                  </Group>
                  <Button
                    type="submit"
                    fullWidth
                    size="md"
                    leftSection={<IconLogin2 size={18} aria-hidden />}
                    disabled={isMissing || organizations.isPending || isSigningIn}
                  >
                    {isSigningIn ? 'Signing In...' : 'Access Admin Dashboard'}
                  </Button>
                  <Button variant="default" fullWidth leftSection={<IconBook2 size={18} aria-hidden />} onClick={guide.open}>
                    Admin Guide
                  </Button>
                </Stack>
              </form>
            </Paper>
            <DemoCredentials
              accounts={orgAdminAccounts}
              onPick={(account) => {
                setEmail(account.email);
                setPassword(DEMO_PASSWORD);
              }}
            />
          </Stack>
        </Grid.Col>
      </Grid>
      {forgotOpened ? <ForgotPasswordModal opened onClose={forgot.close} initialEmail={email} requestReset={recoverPassword} /> : null}
      <AdminGuideModal opened={guideOpened} onClose={guide.close} />
    </PortalFrame>
  );
}
