import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { needsEmployeeId, updateMemberSchema, type TeamMember, type UpdateMemberInput } from '../../../../../domain/org-team';
import { errorMessage } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../../lib/zod-form';
import { useUpdateMember } from '../../api/team-api';
import { ROLE_OPTIONS, roleLabel } from './team-format';

type Values = { role: string; employeeId: string };

const toInput = (v: Values): UpdateMemberInput => ({
  role: v.role as UpdateMemberInput['role'],
  employeeId: v.employeeId.trim() === '' ? null : v.employeeId,
});

const validate = zodFormValidate(updateMemberSchema);

/** A member's role and employee ID. Mounted per member (a new form for each). */
export function EditMemberModal({ orgId, member, onClose }: { orgId: string; member: TeamMember; onClose: () => void }) {
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { role: member.role, employeeId: member.employeeId ?? '' },
    validate: (values) => validate(toInput(values)),
  });
  const update = useUpdateMember(orgId);
  const name = member.fullName || member.email;
  const close = () => {
    if (!update.isPending) onClose();
  };
  const submit = (values: Values) =>
    update.mutate(
      { id: member.id, ...toInput(values) },
      {
        onSuccess: (saved) => {
          toast.success('Member updated', `${name} is now ${roleLabel(saved.role)}${saved.employeeId ? ` (employee ID ${saved.employeeId})` : ''}.`);
          onClose();
        },
        onError: (error) => {
          if (!applyApiFieldErrors(error, form.setFieldError)) form.setErrors({ form: errorMessage(error, 'The member could not be updated.') });
        },
      },
    );

  return (
    <Modal opened onClose={close} title={`Edit ${name}`} centered>
      <form noValidate onSubmit={form.onSubmit(submit)}>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {member.email}
            {member.isYou ? ' (you)' : ''}
          </Text>
          <Select label="Role" withAsterisk data={ROLE_OPTIONS} allowDeselect={false} comboboxProps={{ withinPortal: true }} {...form.getInputProps('role')} />
          <TextInput
            label="Employee ID"
            withAsterisk={needsEmployeeId(form.values.role)}
            description="Dockmasters and security staff sign in at the gate with it. Unique in your organization."
            autoComplete="off"
            {...form.getInputProps('employeeId')}
          />
          {form.errors.form ? (
            <Alert color="red" variant="light" role="alert" title="Not saved">
              {form.errors.form}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
