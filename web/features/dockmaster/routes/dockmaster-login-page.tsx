import { Alert, Button, Grid, Group, List, Paper, Select, SimpleGrid, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import {
  IconBuildingWarehouse,
  IconCalendarTime,
  IconCircleCheck,
  IconClock,
  IconInfoCircle,
  IconListNumbers,
  IconLogin2,
  IconPhone,
  IconScan,
  IconUserCheck,
} from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, STORAGE_KEYS } from '../../../../domain/constants';
import { FeatureList, type FeatureItem } from '../../../components/ui/feature-list';
import { PasswordField } from '../../../components/ui/password-field';
import { PortalFrame } from '../../../components/ui/portal-frame';
import { StatCard } from '../../../components/ui/stat-card';
import { errorMessage, isClientError } from '../../../lib/api-client';
import { writeJson } from '../../../lib/storage';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { DemoCredentials } from '../../../components/auth/demo-credentials';
import { useAuth } from '../../auth/hooks/use-auth';
import { usePublicSites } from '../api/get-public-sites';
import { useSiteStatus } from '../api/get-site-status';

const capabilities: FeatureItem[] = [
  { title: 'Vehicle Check-in', description: 'Check arriving vehicles in at the gate and send them to their bay.', icon: <IconUserCheck size={20} /> },
  { title: 'Plate Scanning', description: 'Read number plates by camera or typed input and match expected vehicles.', icon: <IconScan size={20} /> },
  { title: 'Bay Status', description: 'See which bays are occupied, free or overstaying.', icon: <IconBuildingWarehouse size={20} /> },
  { title: 'Gate Queue', description: 'Vehicles waiting at the gate, in order of arrival.', icon: <IconListNumbers size={20} /> },
];

const dockAccounts = DEMO_ACCOUNTS.filter((a) => a.role === 'dockmaster' || a.role === 'security');

/**
 * Spec "Dockmaster login page" (/dockmaster). Unlike the spec's, this one checks the employee ID
 * and password against a dockmaster membership at the chosen site's organization.
 */
export default function DockmasterLoginPage() {
  usePageTitle('Dock Master Portal');
  const { signInDockmaster } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  // Security staff who signed in at /login were sent here: their sign-in is this one.
  const isFromLogin = (location.state as { notice?: string } | null)?.notice === 'security-sign-in';
  const sites = usePublicSites();
  const [siteId, setSiteId] = useState<string | null>(null);
  const [employeeId, setEmployeeId] = useState('');
  const [password, setPassword] = useState('');
  const [isSigningIn, setIsSigningIn] = useState(false);
  const site = sites.data?.find((s) => s.id === siteId) ?? null;
  const status = useSiteStatus(site?.id ?? null);

  const siteOptions = (sites.data ?? []).map((s) => ({ value: s.id, label: `${s.name} — ${s.orgName}` }));

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!site || !employeeId.trim() || !password) {
      toast.error('Missing Information', 'Please fill in all fields');
      return;
    }
    setIsSigningIn(true);
    try {
      await signInDockmaster({ siteId: site.id, employeeId: employeeId.trim(), password });
      writeJson(STORAGE_KEYS.selectedOrg, { id: site.orgId, name: site.orgName });
      writeJson(STORAGE_KEYS.selectedSite, { id: site.id, name: site.name });
      navigate('/dockmaster/dashboard', { replace: true });
    } catch (error) {
      if (isClientError(error)) toast.error('Login Failed', error.message);
      else toast.error('Login Error', errorMessage(error, 'An unexpected error occurred. Please try again.'));
      setIsSigningIn(false);
    }
  };

  // What anyone at the gate may know: open or closed, today's hours, the local time. Booking and
  // bay figures are for signed-in staff.
  const st = status.data;
  const figures = [
    { label: 'Now', value: st ? (st.isOpenNow ? 'Open' : 'Closed') : '', icon: <IconCircleCheck size={18} /> },
    { label: 'Hours today', value: st ? (st.hoursToday.length > 0 ? st.hoursToday.map((w) => `${w.open}–${w.close}`).join(', ') : 'Closed today') : '', icon: <IconCalendarTime size={18} /> },
    { label: 'Local time', value: st ? `${st.localTime}` : '', icon: <IconClock size={18} /> },
  ];

  return (
    <PortalFrame areaName="Dock Master" background="linear-gradient(160deg, var(--mantine-color-teal-0), var(--mantine-color-gray-0) 55%)">
      <Grid gutter="xl" pt="md">
        <Grid.Col span={{ base: 12, md: 7 }} order={{ base: 2, md: 1 }}>
          <Stack gap="lg">
            <div>
              <Title order={1}>Dock Master Portal</Title>
              <Text c="dimmed" mt="xs" maw={560}>
                Site operations: check-ins, arrivals, bay status, plate scanning and the gate queue.
              </Text>
            </div>
            {isFromLogin ? (
              <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} aria-hidden />} role="status" title="Security staff sign in here">
                Your account works at one site’s gate: choose the site, then sign in with your employee ID and password.
              </Alert>
            ) : null}
            <section aria-labelledby="capabilities-heading">
              <Title order={2} size="h4" id="capabilities-heading" mb="sm">
                Capabilities
              </Title>
              <FeatureList items={capabilities} />
            </section>
            <section aria-labelledby="status-heading">
              <Title order={2} size="h4" id="status-heading" mb="sm">
                {site ? `Site status — ${site.name}${st ? ` (${st.timeZone})` : ''}` : 'Site status'}
              </Title>
              {site ? (
                <SimpleGrid cols={{ base: 1, xs: 3, md: 3 }} spacing="sm">
                  {figures.map((f) => (
                    <StatCard
                      key={f.label}
                      label={f.label}
                      value={f.value}
                      icon={f.icon}
                      isLoading={status.isPending}
                      isError={status.isError}
                    />
                  ))}
                </SimpleGrid>
              ) : (
                <Text c="dimmed" size="sm">
                  Choose a site to see its status.
                </Text>
              )}
            </section>
            <section aria-labelledby="emergency-heading">
              <Title order={2} size="h4" id="emergency-heading" mb="sm">
                Emergency contacts
              </Title>
              {!site ? (
                <Text c="dimmed" size="sm">
                  Choose a site to see its emergency extensions.
                </Text>
              ) : site.emergencyContacts.length === 0 ? (
                <Text c="dimmed" size="sm">
                  No emergency contacts are listed for {site.name}.
                </Text>
              ) : (
                <Paper withBorder radius="md" p="md">
                  <List spacing="xs" icon={<ThemeIcon color="red" variant="light" size="sm" radius="xl" aria-hidden><IconPhone size={12} /></ThemeIcon>}>
                    {site.emergencyContacts.map((contact) => (
                      <List.Item key={`${contact.label}-${contact.extension}`}>
                        <Group gap="xs">
                          <Text size="sm" fw={600}>
                            {contact.label}
                          </Text>
                          <Text size="sm">Ext. {contact.extension}</Text>
                        </Group>
                      </List.Item>
                    ))}
                  </List>
                </Paper>
              )}
            </section>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }} order={{ base: 1, md: 2 }}>
          <Stack gap="md">
            <Paper withBorder shadow="sm" radius="lg" p="xl">
              <form onSubmit={handleSubmit} noValidate>
                <Stack gap="md">
                  <Title order={2} size="h3">
                    Dock master sign-in
                  </Title>
                  <Select
                    label="Site"
                    placeholder={sites.isPending ? 'Loading sites…' : 'Select your site'}
                    data={siteOptions}
                    value={siteId}
                    onChange={setSiteId}
                    searchable
                    nothingFoundMessage="No site found"
                    error={sites.isError ? errorMessage(sites.error, 'Failed to load sites') : undefined}
                    disabled={sites.isPending}
                  />
                  <TextInput
                    label="Employee ID"
                    autoComplete="username"
                    placeholder="e.g. D1001"
                    value={employeeId}
                    onChange={(e) => setEmployeeId(e.currentTarget.value)}
                  />
                  <PasswordField
                    label="Password"
                    autoComplete="current-password"
                    value={password}
                    onChange={(e) => setPassword(e.currentTarget.value)}
                  />
                  <Button type="submit" fullWidth size="md" leftSection={<IconLogin2 size={18} aria-hidden />} disabled={!site || isSigningIn}>
                    {isSigningIn ? 'Signing in...' : 'Access Dock Operations'}
                  </Button>
                </Stack>
              </form>
            </Paper>
            <DemoCredentials
              accounts={dockAccounts}
              showEmployeeId
              onPick={(account) => {
                setEmployeeId('employeeId' in account ? account.employeeId : '');
                setPassword(DEMO_PASSWORD);
              }}
            />
          </Stack>
        </Grid.Col>
      </Grid>
    </PortalFrame>
  );
}
