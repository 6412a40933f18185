import { Alert, Anchor, Button, Center, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { DEMO_PASSWORD } from '../../../../domain/constants';
import { homePathForRole } from '../../../../domain/enums';
import { PasswordField } from '../../../components/ui/password-field';
import { PortalFrame } from '../../../components/ui/portal-frame';
import { errorMessage } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { DemoCredentials } from '../../../components/auth/demo-credentials';
import { ForgotPasswordModal } from '../../../components/auth/forgot-password-modal';
import { recoverPassword } from '../api/recover-password';
import { MfaCodeForm } from '../../../components/auth/mfa-code-form';
import { MfaRequiredError } from '../api/sign-in-with-password';
import { useAuth } from '../hooks/use-auth';

/** Where security staff sign in: the gate's own sign-in, which asks for their site (decision 012). */
const SECURITY_SIGN_IN_PATH = '/dockmaster';

/** Security staff who signed in here land on the gate's sign-in, told why (it shows SECURITY_SIGN_IN_NOTICE). */
function landingNotice(role: string | null) {
  return role === 'security' ? { notice: 'security-sign-in' } : undefined;
}

/**
 * Spec "Admin sign-in screen" (/login). Once user and role are known it redirects:
 * platform roles → /superadmin/dashboard, org_admin and dockmaster → /org/dashboard, others → /.
 */
export default function AdminLoginPage() {
  usePageTitle('Sign in');
  const { signIn, completeMfaSignIn, session, role, isLoading, isRoleLoading } = useAuth();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSigningIn, setIsSigningIn] = useState(false);
  const [forgotOpened, forgot] = useDisclosure(false);
  /** Set when the password was right and the account asks for its two-factor code next. */
  const [challenge, setChallenge] = useState<string | null>(null);

  if (!isSigningIn && !isLoading && session && !isRoleLoading) {
    return <Navigate to={homePathForRole(role)} replace state={landingNotice(role)} />;
  }

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    if (!email.trim() || !password) {
      setError('Please fill in all fields');
      return;
    }
    setIsSigningIn(true);
    try {
      const result = await signIn({ email: email.trim(), password });
      navigate(homePathForRole(result.role), { replace: true, state: landingNotice(result.role) });
    } catch (err) {
      if (err instanceof MfaRequiredError) setChallenge(err.challenge.challenge_token);
      else setError(errorMessage(err, 'Login failed'));
      setIsSigningIn(false);
    }
  };

  if (challenge) {
    return (
      <PortalFrame withBackLink={false} background="linear-gradient(160deg, var(--mantine-color-indigo-0), var(--mantine-color-gray-0) 60%)">
        <Center py="xl">
          <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={440}>
            <MfaCodeForm
              onSubmit={async (proof) => {
                setIsSigningIn(true);
                try {
                  const result = await completeMfaSignIn(challenge, proof);
                  navigate(homePathForRole(result.role), { replace: true, state: landingNotice(result.role) });
                } catch (err) {
                  setIsSigningIn(false);
                  throw err;
                }
              }}
              onCancel={() => {
                setChallenge(null);
                setPassword('');
              }}
            />
          </Paper>
        </Center>
      </PortalFrame>
    );
  }

  return (
    <PortalFrame withBackLink={false} background="linear-gradient(160deg, var(--mantine-color-indigo-0), var(--mantine-color-gray-0) 60%)">
      <Center py="xl">
        <Stack w="100%" maw={440} gap="lg">
          <Paper withBorder shadow="sm" radius="lg" p="xl">
            <form onSubmit={handleSubmit}>
              <Stack gap="md">
                <div>
                  <Title order={1} size="h2">
                    Sign in
                  </Title>
                  <Text c="dimmed" size="sm" mt={4}>
                    For organization administrators, dockmasters and platform staff.
                  </Text>
                  <Text c="dimmed" size="sm" mt={4}>
                    Security staff sign in at the{' '}
                    <Anchor component={Link} to={SECURITY_SIGN_IN_PATH} size="sm">
                      Dock Master Portal
                    </Anchor>{' '}
                    with their site, employee ID and password.
                  </Text>
                </div>
                <TextInput
                  label="Email"
                  type="email"
                  required
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
                {error ? (
                  <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} role="alert">
                    {error}
                  </Alert>
                ) : null}
                <Button type="submit" fullWidth size="md" disabled={isSigningIn}>
                  {isSigningIn ? 'Signing in...' : 'Sign In'}
                </Button>
                <Group justify="space-between">
                  <Anchor component="button" type="button" size="sm" onClick={forgot.open}>
                    Forgot password?
                  </Anchor>
                  <Anchor component={Link} to="/signup" size="sm">
                    Create an account
                  </Anchor>
                </Group>
                <Anchor component={Link} to="/" size="sm" fw={600}>
                  <Group gap={4} wrap="nowrap" component="span">
                    <IconArrowLeft size={16} aria-hidden />
                    Back to Home
                  </Group>
                </Anchor>
              </Stack>
            </form>
          </Paper>
          <DemoCredentials
            onPick={(account) => {
              setEmail(account.email);
              setPassword(DEMO_PASSWORD);
              setError(null);
            }}
          />
        </Stack>
      </Center>
      {forgotOpened ? <ForgotPasswordModal opened onClose={forgot.close} initialEmail={email} requestReset={recoverPassword} /> : null}
    </PortalFrame>
  );
}
