import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailCheck } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { recoverSchema } from '../../../domain/auth-schemas';
import { errorMessage } from '../../lib/api-client';
import { zodFormValidate } from '../../lib/zod-form';

type ForgotPasswordModalProps = {
  opened: boolean;
  onClose: () => void;
  initialEmail?: string;
  /** Sends the reset link (the auth feature's recoverPassword: POST /api/auth/recover). */
  requestReset: (email: string) => Promise<{ message: string }>;
};

/** 'Forgot password?': e-mails a reset link to /reset-password. */
export function ForgotPasswordModal({ opened, onClose, initialEmail = '', requestReset }: ForgotPasswordModalProps) {
  const recover = useMutation({ mutationFn: requestReset });
  const form = useForm({ initialValues: { email: initialEmail }, validate: zodFormValidate(recoverSchema) });

  const close = () => {
    recover.reset();
    form.reset();
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title="Reset your password" centered>
      {recover.isSuccess ? (
        <Stack>
          <Alert color="green" variant="light" icon={<IconMailCheck size={18} aria-hidden />} role="status">
            {recover.data.message}
          </Alert>
          <Text size="sm">The link in the e-mail lets you choose a new password. It is valid for one hour.</Text>
          <Group justify="flex-end">
            <Button onClick={close}>Close</Button>
          </Group>
        </Stack>
      ) : (
        <form
          noValidate
          onSubmit={form.onSubmit((values) => recover.mutate(values.email.trim()))}
        >
          <Stack>
            <Text size="sm">Enter the e-mail address of your account and we will send you a link to choose a new password.</Text>
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              required
              data-autofocus
              {...form.getInputProps('email')}
            />
            {recover.isError ? (
              <Alert color="red" variant="light" role="alert">
                {errorMessage(recover.error, 'Could not send the reset link. Please try again.')}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={recover.isPending}>
                Send reset link
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
