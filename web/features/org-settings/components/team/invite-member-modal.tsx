import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { inviteMemberSchema, INVITATION_TTL_DAYS, needsEmployeeId, type InviteMemberInput } from '../../../../../domain/org-team';
import { errorMessage } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../../lib/zod-form';
import { useInviteMember } from '../../api/team-api';
import { ROLE_OPTIONS } from './team-format';

type Values = { email: string; fullName: string; role: string | null; employeeId: string };

const INITIAL: Values = { email: '', fullName: '', role: null, employeeId: '' };

/** The form's answers as the shared schema's input: the employee ID only for the gate roles. */
function toInput(v: Values): InviteMemberInput {
  return {
    email: v.email,
    fullName: v.fullName.trim() === '' ? undefined : v.fullName,
    role: (v.role ?? '') as InviteMemberInput['role'],
    employeeId: v.role && needsEmployeeId(v.role) ? v.employeeId : undefined,
  };
}

const validate = zodFormValidate(inviteMemberSchema);

/** 'Invite member': an e-mail with a one-time link to set a password and join with the role. */
export function InviteMemberModal({ orgId, orgName, opened, onClose }: { orgId: string; orgName: string; opened: boolean; onClose: () => void }) {
  const form = useForm<Values>({ mode: 'controlled', initialValues: INITIAL, validate: (values) => validate(toInput(values)) });
  const invite = useInviteMember(orgId);
  const close = () => {
    if (invite.isPending) return;
    form.reset();
    invite.reset();
    onClose();
  };
  const submit = (values: Values) =>
    invite.mutate(toInput(values), {
      onSuccess: (invitation) => {
        toast.success('Invitation sent', `${invitation.email} has ${INVITATION_TTL_DAYS} days to accept it.`);
        form.reset();
        onClose();
      },
      onError: (error) => {
        if (!applyApiFieldErrors(error, form.setFieldError)) form.setErrors({ form: errorMessage(error, 'The invitation could not be sent.') });
      },
    });
  const showsEmployeeId = !!form.values.role && needsEmployeeId(form.values.role);

  return (
    <Modal opened={opened} onClose={close} title="Invite member" centered>
      <form noValidate onSubmit={form.onSubmit(submit)}>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            We e-mail a link to join {orgName}. It works once and for {INVITATION_TTL_DAYS} days.
          </Text>
          <TextInput label="Email" type="email" withAsterisk autoComplete="off" data-autofocus {...form.getInputProps('email')} />
          <TextInput label="Full name" autoComplete="off" {...form.getInputProps('fullName')} />
          <Select
            label="Role"
            withAsterisk
            placeholder="Choose a role"
            data={ROLE_OPTIONS}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('role')}
          />
          {showsEmployeeId ? (
            <TextInput
              label="Employee ID"
              withAsterisk
              description="Signs in at the gate with the site, this ID and their password. Unique in your organization."
              autoComplete="off"
              {...form.getInputProps('employeeId')}
            />
          ) : null}
          {form.errors.form ? (
            <Alert color="red" variant="light" role="alert" title="Not sent">
              {form.errors.form}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={invite.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={invite.isPending}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
