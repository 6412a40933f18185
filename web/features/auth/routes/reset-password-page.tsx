import { Alert, Anchor, Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { newPasswordField } from '../../../../domain/auth-schemas';
import { PasswordField } from '../../../components/ui/password-field';
import { PortalFrame } from '../../../components/ui/portal-frame';
import { errorMessage } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { zodFormValidate } from '../../../lib/zod-form';
import { useResetPassword } from '../api/verify-token';

const resetSchema = z
  .object({ password: newPasswordField, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] });

/** /reset-password?token=…: choose a new password from the e-mailed recovery link. */
export default function ResetPasswordPage() {
  usePageTitle('Choose a new password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useResetPassword();
  const form = useForm({ initialValues: { password: '', confirmPassword: '' }, validate: zodFormValidate(resetSchema) });

  return (
    <PortalFrame>
      <Center py="xl">
        <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={440}>
          <Stack>
            <Title order={1} size="h2">
              Choose a new password
            </Title>
            {!token ? (
              <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} aria-hidden />}>
                This link is invalid or has expired. Request a new one.
              </Alert>
            ) : reset.isSuccess ? (
              <Alert color="green" variant="light" role="status" icon={<IconCircleCheck size={18} aria-hidden />}>
                {reset.data.message}
              </Alert>
            ) : (
              <form noValidate onSubmit={form.onSubmit((values) => reset.mutate({ token, password: values.password }))}>
                <Stack>
                  <Text size="sm" c="dimmed">
                    At least 8 characters, with a letter and a number.
                  </Text>
                  <PasswordField label="New password" required autoComplete="new-password" {...form.getInputProps('password')} />
                  <PasswordField
                    label="Confirm new password"
                    required
                    autoComplete="new-password"
                    {...form.getInputProps('confirmPassword')}
                  />
                  {reset.isError ? (
                    <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} aria-hidden />}>
                      {errorMessage(reset.error, 'Could not set the new password.')}
                    </Alert>
                  ) : null}
                  <Button type="submit" loading={reset.isPending}>
                    Set new password
                  </Button>
                </Stack>
              </form>
            )}
            <Anchor component={Link} to="/login">
              Go to sign in
            </Anchor>
          </Stack>
        </Paper>
      </Center>
    </PortalFrame>
  );
}
