import { Alert, Button, Center, Loader, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { newAccountFormSchema, TEAM_ROLE_LABELS, type InvitationInfo } from '../../../../domain/org-team';
import type { OrgRole } from '../../../../domain/enums';
import { PasswordField } from '../../../components/ui/password-field';
import { PortalFrame } from '../../../components/ui/portal-frame';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { applyApiFieldErrors, zodFormValidate } from '../../../lib/zod-form';
import { useAcceptInvitation, useInvitation } from '../../org-settings/api/team-api';

// /accept-invitation?token=…: the invited person sees the organization and the role, chooses a
// name and a password (or, with an existing account, just accepts), then signs in as usual: org
// admins at /orgadmin, dockmasters and security staff at /dockmaster.

const INVALID_LINK = 'This invitation link is invalid or has expired. Ask your organization admin to send a new invitation.';

const roleLabel = (role: string) => TEAM_ROLE_LABELS[role as OrgRole] ?? role;

function InvitationFacts({ invitation }: { invitation: InvitationInfo }) {
  return (
    <Table variant="vertical" withTableBorder aria-label="Invitation">
      <Table.Tbody>
        <Table.Tr>
          <Table.Th w={140}>Organization</Table.Th>
          <Table.Td>{invitation.orgName}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>Role</Table.Th>
          <Table.Td>{roleLabel(invitation.role)}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>Email</Table.Th>
          <Table.Td>{invitation.email}</Table.Td>
        </Table.Tr>
        {invitation.employeeId ? (
          <Table.Tr>
            <Table.Th>Employee ID</Table.Th>
            <Table.Td>{invitation.employeeId}</Table.Td>
          </Table.Tr>
        ) : null}
      </Table.Tbody>
    </Table>
  );
}

function AcceptForm({ token, invitation }: { token: string; invitation: InvitationInfo }) {
  const accept = useAcceptInvitation(token);
  const form = useForm({
    initialValues: { fullName: invitation.fullName ?? '', password: '', confirmPassword: '' },
    validate: invitation.hasAccount ? undefined : zodFormValidate(newAccountFormSchema),
  });

  if (accept.isSuccess) {
    const result = accept.data;
    const atGate = result.signInPath === '/dockmaster';
    return (
      <Stack>
        <Alert color="green" variant="light" role="status" icon={<IconCircleCheck size={18} aria-hidden />}>
          You are now {roleLabel(result.role)} at {result.orgName}.{' '}
          {atGate
            ? `Sign in at the gate with your site, your employee ID${result.employeeId ? ` (${result.employeeId})` : ''} and your password.`
            : 'Sign in with your e-mail address and your password.'}
        </Alert>
        <Button component={Link} to={result.signInPath}>
          {atGate ? 'Go to the dock master sign-in' : 'Go to the admin sign-in'}
        </Button>
      </Stack>
    );
  }

  const submit = (values: typeof form.values) =>
    accept.mutate(invitation.hasAccount ? {} : { fullName: values.fullName, password: values.password }, {
      onError: (error) => {
        applyApiFieldErrors(error, form.setFieldError);
      },
    });
  const isGone = accept.error instanceof ApiError && accept.error.status === 404;

  return (
    <form noValidate onSubmit={form.onSubmit(submit)}>
      <Stack>
        {invitation.hasAccount ? (
          <Text size="sm">
            You already have a Baywise account for {invitation.email}. Accept to add {invitation.orgName} to it; your password stays the same.
          </Text>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              Choose your name and a password: at least 8 characters, with a letter and a number.
            </Text>
            <TextInput label="Full name" required autoComplete="name" {...form.getInputProps('fullName')} />
            <PasswordField label="Password" required autoComplete="new-password" {...form.getInputProps('password')} />
            <PasswordField label="Confirm password" required autoComplete="new-password" {...form.getInputProps('confirmPassword')} />
          </>
        )}
        {accept.isError ? (
          <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} aria-hidden />}>
            {isGone ? INVALID_LINK : errorMessage(accept.error, 'The invitation could not be accepted. Please try again.')}
          </Alert>
        ) : null}
        <Button type="submit" loading={accept.isPending} disabled={isGone}>
          {invitation.hasAccount ? 'Accept invitation' : 'Accept and create account'}
        </Button>
      </Stack>
    </form>
  );
}

export default function AcceptInvitationPage() {
  usePageTitle('Accept invitation');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const invitation = useInvitation(token);

  return (
    <PortalFrame>
      <Center py="xl">
        <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={480}>
          <Stack>
            <Title order={1} size="h2">
              {invitation.data ? `Join ${invitation.data.orgName}` : 'Accept invitation'}
            </Title>
            {!token || (invitation.isError && invitation.error instanceof ApiError && invitation.error.status === 404) ? (
              <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} aria-hidden />} title="Invitation not valid">
                {INVALID_LINK}
              </Alert>
            ) : invitation.isError ? (
              <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} aria-hidden />}>
                {errorMessage(invitation.error, 'The invitation could not be loaded. Please try again.')}
              </Alert>
            ) : !invitation.data ? (
              <Center py="md">
                <Loader aria-label="Loading the invitation" />
              </Center>
            ) : (
              <>
                <InvitationFacts invitation={invitation.data} />
                <AcceptForm token={token} invitation={invitation.data} />
              </>
            )}
          </Stack>
        </Paper>
      </Center>
    </PortalFrame>
  );
}
