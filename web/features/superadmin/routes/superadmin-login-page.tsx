import { Alert, Anchor, Button, Grid, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  IconActivity,
  IconBuildingSkyscraper,
  IconChartLine,
  IconLock,
  IconReportMoney,
  IconServerCog,
  IconShieldLock,
  IconUsers,
} from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../../../domain/constants';
import { isPlatformRole } from '../../../../domain/enums';
import { FeatureList, type FeatureItem } from '../../../components/ui/feature-list';
import { PasswordField } from '../../../components/ui/password-field';
import { PortalFrame } from '../../../components/ui/portal-frame';
import { StatCard } from '../../../components/ui/stat-card';
import { errorMessage, isClientError } from '../../../lib/api-client';
import { formatCount } from '../../../lib/format';
import { SUPPORT_EMAIL } from '../../../lib/support';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { DemoCredentials } from '../../../components/auth/demo-credentials';
import { MfaCodeForm } from '../../../components/auth/mfa-code-form';
import { MfaRequiredError } from '../../auth/api/sign-in-with-password';
import { useAuth } from '../../auth/hooks/use-auth';
import { usePlatformStats } from '../api/get-platform-stats';

const DASHBOARD = '/superadmin/dashboard';

const capabilities: FeatureItem[] = [
  {
    title: 'Organization Management',
    description: 'Create, suspend and review every organization, its sites and its members.',
    icon: <IconBuildingSkyscraper size={20} />,
  },
  {
    title: 'Billing & Revenue',
    description: 'Plans, invoices and monthly recurring revenue across the platform.',
    icon: <IconReportMoney size={20} />,
  },
  {
    title: 'Platform Analytics',
    description: 'Usage and booking activity per organization over 7 or 30 days.',
    icon: <IconChartLine size={20} />,
  },
  {
    title: 'System Operations',
    description: 'Audit logs, user impersonation, error monitoring and platform configuration.',
    icon: <IconServerCog size={20} />,
  },
];

const superAccounts = DEMO_ACCOUNTS.filter((a) => a.role === 'super_admin');

/** Spec "Super-admin login screen" (/superadmin), with real platform figures. */
export default function SuperAdminLoginPage() {
  usePageTitle('Super Admin Portal');
  const { signIn, completeMfaSignIn, signOut, session, role, isLoading, isRoleLoading } = useAuth();
  const navigate = useNavigate();
  const stats = usePlatformStats();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [isAuthenticating, setIsAuthenticating] = useState(false);
  /** Set when the password was right and the account asks for its two-factor code next. */
  const [challenge, setChallenge] = useState<string | null>(null);

  if (!isAuthenticating && !isLoading && session && !isRoleLoading && isPlatformRole(role)) {
    return <Navigate to={DASHBOARD} replace />;
  }

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email.trim() || !password) {
      toast.error('Missing Information', 'Please enter both email and password.');
      return;
    }
    setIsAuthenticating(true);
    try {
      await enter(await signIn({ email: email.trim(), password }));
      return;
    } catch (error) {
      if (error instanceof MfaRequiredError) setChallenge(error.challenge.challenge_token);
      else if (isClientError(error)) toast.error('Login Failed', error.message || 'Invalid credentials');
      else toast.error('Login Error', errorMessage(error, 'An unexpected error occurred. Please try again.'));
    }
    setIsAuthenticating(false);
  };

  /** Platform roles go on to the dashboard; anyone else is signed out again. */
  const enter = async (result: { role: string | null }) => {
    if (isPlatformRole(result.role)) {
      navigate(DASHBOARD, { replace: true });
      return;
    }
    await signOut();
    setChallenge(null);
    toast.error('Login Failed', 'This portal is restricted to platform administrators.');
    setIsAuthenticating(false);
  };

  const handleCode = async (proof: { code: string } | { recoveryCode: string }) => {
    if (!challenge) return;
    setIsAuthenticating(true);
    try {
      await enter(await completeMfaSignIn(challenge, proof));
    } catch (error) {
      setIsAuthenticating(false);
      throw error;
    }
  };

  const s = stats.data;
  return (
    <PortalFrame
      areaName="Super Admin"
      background="linear-gradient(160deg, var(--mantine-color-indigo-1), var(--mantine-color-gray-0) 55%)"
    >
      <Grid gutter="xl" pt="md">
        <Grid.Col span={{ base: 12, md: 7 }} order={{ base: 2, md: 1 }}>
          <Stack gap="lg">
            <div>
              <Title order={1}>Super Admin Portal</Title>
              <Text c="dimmed" mt="xs" maw={560}>
                Run the Baywise platform: organizations, plans and billing, usage analytics and the audit trail.
              </Text>
            </div>
            <section aria-labelledby="platform-stats-heading">
              <Title order={2} size="h4" id="platform-stats-heading" mb="sm">
                Platform at a glance
              </Title>
              {/* Only what is harmless to show anyone: no revenue, no per-organization figures. */}
              <SimpleGrid cols={{ base: 1, xs: 3, md: 3 }} spacing="sm">
                <StatCard label="Organizations" value={s ? formatCount(s.organizations) : ''} icon={<IconBuildingSkyscraper size={18} />} isLoading={stats.isPending} isError={stats.isError} />
                <StatCard label="Users" value={s ? formatCount(s.users) : ''} icon={<IconUsers size={18} />} isLoading={stats.isPending} isError={stats.isError} />
                <StatCard label="Uptime (30 days)" value={s ? (s.uptimePercent === null ? '—' : `${s.uptimePercent}%`) : ''} icon={<IconActivity size={18} />} isLoading={stats.isPending} isError={stats.isError} />
              </SimpleGrid>
            </section>
            <section aria-labelledby="capabilities-heading">
              <Title order={2} size="h4" id="capabilities-heading" mb="sm">
                What you can do here
              </Title>
              <FeatureList items={capabilities} />
            </section>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }} order={{ base: 1, md: 2 }}>
          <Stack gap="md">
            <Paper withBorder shadow="sm" radius="lg" p="xl">
              {challenge ? (
                <MfaCodeForm
                  onSubmit={handleCode}
                  onCancel={() => {
                    setChallenge(null);
                    setPassword('');
                  }}
                />
              ) : (
                <form onSubmit={handleSubmit} noValidate>
                  <Stack gap="md">
                    <Stack gap={4}>
                      <IconShieldLock size={32} aria-hidden color="var(--mantine-color-indigo-8)" />
                      <Title order={2} size="h3">
                        Administrator sign-in
                      </Title>
                    </Stack>
                    <TextInput
                      label="Administrator Email"
                      type="email"
                      autoComplete="email"
                      placeholder="admin@baywise.test"
                      value={email}
                      onChange={(e) => setEmail(e.currentTarget.value)}
                    />
                    <PasswordField
                      label="Password"
                      autoComplete="current-password"
                      value={password}
                      onChange={(e) => setPassword(e.currentTarget.value)}
                    />
                    <Button type="submit" fullWidth size="md" disabled={isAuthenticating} leftSection={<IconLock size={18} aria-hidden />}>
                      {isAuthenticating ? 'Authenticating...' : 'Access Super Admin Portal'}
                    </Button>
                  </Stack>
                </form>
              )}
            </Paper>
            <Alert color="red" variant="light" title="Restricted access" icon={<IconShieldLock size={18} aria-hidden />}>
              This portal is restricted to authorized platform administrators. All access attempts are logged and monitored.
            </Alert>
            <Text size="sm">
              Need help? Contact platform support at <Anchor href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</Anchor>.
            </Text>
            <DemoCredentials
              accounts={superAccounts}
              onPick={(account) => {
                setEmail(account.email);
                setPassword(DEMO_PASSWORD);
              }}
            />
          </Stack>
        </Grid.Col>
      </Grid>
    </PortalFrame>
  );
}
