import { Anchor, Button, Grid, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
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
import { errorMessage, isClientError } from '../../../lib/api-client';
import { readJson, removeKey, writeJson } from '../../../lib/storage';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { DemoCredentials } from '../../../components/auth/demo-credentials';
import { ForgotPasswordModal } from '../../../components/auth/forgot-password-modal';
import { recoverPassword } from '../../auth/api/recover-password';
import { useAuth } from '../../auth/hooks/use-auth';
import { AdminGuideModal } from '../components/admin-guide-modal';
import { usePublicOrganizations } from '../api/get-public-organizations';
import type { SavedSelection } from '../hooks/org-selection-provider';

const tools: FeatureItem[] = [
  { title: 'Booking Management', description: 'Approve, decline and reschedule dock slot requests.', icon: <IconClipboardCheck size={20} /> },
  { title: 'Bay Configuration', description: 'Clearances, features, blackouts and operating hours per site.', icon: <IconBuildingWarehouse size={20} /> },
  { title: 'Live Operations', description: 'Arrivals, check-ins and bay status in real time.', icon: <IconTruckDelivery size={20} /> },
  { title: 'Reports & Analytics', description: 'Utilisation, on-time arrival, dwell time and no-shows.', icon: <IconChartBar size={20} /> },
];

/** What the dashboard shows after sign-in: the labels only, never live figures to a signed-out visitor. */
const overviewItems: FeatureItem[] = [
  { title: 'Pending Requests', description: 'Requests waiting for your approval.', icon: <IconClock size={20} /> },
  { title: "Today's Bookings", description: "Your sites' bookings for the day.", icon: <IconCalendarStats size={20} /> },
  { title: 'On Site Now', description: 'Vehicles at the gate or at a bay.', icon: <IconUserCheck size={20} /> },
  { title: 'Utilization Today', description: "How much of your bays' open time is booked.", icon: <IconBuildingWarehouse size={20} /> },
];

const orgAdminAccounts = DEMO_ACCOUNTS.filter((a) => a.role === 'org_admin');

/** Spec "Organization admin login page" (/orgadmin). */
export default function OrgAdminLoginPage() {
  usePageTitle('Organization Admin Portal');
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const organizations = usePublicOrganizations();
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
              {/* Figures only after sign-in, and only the organization's own (issue 21): the dashboard shows them. */}
              <Text size="sm" c="dimmed" mb="sm" maw={560}>
                Sign in to see your organization&apos;s figures for today on your dashboard.
              </Text>
              <FeatureList items={overviewItems} headingOrder={3} />
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
