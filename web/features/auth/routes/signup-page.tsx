import { Alert, Anchor, Button, Center, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLock, IconMailCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { SIGN_UP_CLOSED, signUpSchema } from '../../../../domain/auth-schemas';
import { PasswordField } from '../../../components/ui/password-field';
import { PortalFrame } from '../../../components/ui/portal-frame';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { zodFormValidate } from '../../../lib/zod-form';
import { useAuthSettings } from '../api/get-auth-settings';
import { useSignUp } from '../api/sign-up';

/**
 * /signup: create an account; a confirmation link is e-mailed (to /auth/confirm). When the
 * platform has closed self sign-up, the page says so instead of offering the form (the server
 * refuses it anyway).
 */
export default function SignupPage() {
  usePageTitle('Create an account');
  const settings = useAuthSettings();
  const signUp = useSignUp();
  const isClosed = settings.data?.signUpOpen === false || (signUp.error instanceof ApiError && signUp.error.code === 'signup_closed');
  const form = useForm({
    initialValues: { fullName: '', email: '', password: '' },
    validate: zodFormValidate(signUpSchema),
  });

  const handleSubmit = form.onSubmit((values) => {
    signUp.mutate(
      { email: values.email.trim(), password: values.password, fullName: values.fullName.trim() || undefined },
      { onError: (error) => toast.error('Signup Failed', errorMessage(error, 'Could not create the account.')) },
    );
  });

  return (
    <PortalFrame>
      <Center py="xl">
        <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={440}>
          {settings.isPending ? (
            <Group justify="center" py="lg">
              <Loader aria-label="Loading" />
            </Group>
          ) : isClosed ? (
            <Stack>
              <Title order={1} size="h2">
                Sign-up is closed
              </Title>
              <Alert color="gray" variant="light" icon={<IconLock size={18} aria-hidden />} role="status" styles={{ message: { color: 'var(--mantine-color-dark-7)' } }}>
                {SIGN_UP_CLOSED}
              </Alert>
              <Text size="sm">
                Already have an account?{' '}
                <Anchor component={Link} to="/login">
                  Sign in
                </Anchor>
              </Text>
            </Stack>
          ) : signUp.isSuccess ? (
            <Stack>
              <Title order={1} size="h2">
                Check your e-mail
              </Title>
              <Alert color="green" variant="light" icon={<IconMailCheck size={18} aria-hidden />} role="status">
                We sent a confirmation link to {form.values.email.trim()}. Open it to activate your account.
              </Alert>
              <Anchor component={Link} to="/login">
                Go to sign in
              </Anchor>
            </Stack>
          ) : (
            <form noValidate onSubmit={handleSubmit}>
              <Stack>
                <div>
                  <Title order={1} size="h2">
                    Create an account
                  </Title>
                  <Text c="dimmed" size="sm" mt={4}>
                    An organization administrator can then add you to their team.
                  </Text>
                </div>
                <TextInput label="Full name" autoComplete="name" {...form.getInputProps('fullName')} />
                <TextInput label="Email" type="email" required autoComplete="email" {...form.getInputProps('email')} />
                <PasswordField
                  label="Password"
                  required
                  autoComplete="new-password"
                  description="At least 8 characters, with a letter and a number."
                  {...form.getInputProps('password')}
                />
                <Button type="submit" fullWidth loading={signUp.isPending}>
                  Create account
                </Button>
                <Text size="sm">
                  Already have an account?{' '}
                  <Anchor component={Link} to="/login">
                    Sign in
                  </Anchor>
                </Text>
              </Stack>
            </form>
          )}
        </Paper>
      </Center>
    </PortalFrame>
  );
}
