import { Alert, Anchor, Center, Loader, Paper, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { PortalFrame } from '../../../components/ui/portal-frame';
import { errorMessage } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { confirmEmailQueryOptions } from '../api/verify-token';

const INVALID_LINK = 'This link is invalid or has expired. Request a new one.';

/** /auth/confirm?token=…: the e-mail confirmation link of sign-up. */
export default function ConfirmEmailPage() {
  usePageTitle('Confirm e-mail');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirm = useQuery({ ...confirmEmailQueryOptions(token), enabled: !!token });

  return (
    <PortalFrame>
      <Center py="xl">
        <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={460}>
          <Stack>
            <Title order={1} size="h2">
              Confirm your e-mail
            </Title>
            {!token ? (
              <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} aria-hidden />}>
                {INVALID_LINK}
              </Alert>
            ) : confirm.isPending ? (
              <Loader aria-label="Confirming" />
            ) : confirm.isError ? (
              <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} aria-hidden />}>
                {errorMessage(confirm.error, INVALID_LINK)}
              </Alert>
            ) : (
              <Alert color="green" variant="light" role="status" icon={<IconCircleCheck size={18} aria-hidden />}>
                {confirm.data.message}
              </Alert>
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
