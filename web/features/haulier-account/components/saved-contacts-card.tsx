import { ActionIcon, Alert, Button, Card, Group, Loader, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAddressBook, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { savedContactInputSchema, type SavedContact } from '../../../../domain/haulier-accounts';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useDeleteSavedContact, useSaveContact, useSavedContacts } from '../api/saved-contacts';
import { useT } from '../../../i18n/index';
import { ConfirmDelete } from './confirm-delete';

const EMPTY = { companyName: '', contactName: '', phone: '' };

/** The haulier's saved contacts (company, contact name, phone): listed, added, deleted. */
export function SavedContactsCard() {
  const { t } = useT('account');
  const contacts = useSavedContacts();
  const save = useSaveContact();
  const remove = useDeleteSavedContact();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [toDelete, setToDelete] = useState<SavedContact | null>(null);
  const set = (key: keyof typeof EMPTY) => (event: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [key]: event.currentTarget.value });

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = savedContactInputSchema.safeParse(values);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(values, {
      onSuccess: () => setValues(EMPTY),
      onError: (error) => toast.error(t('contacts.saveFailed'), errorMessage(error, t('contacts.saveFailed'))),
    });
  };

  return (
    <Card withBorder radius="md" padding="lg">
      <Group gap="xs" mb="sm">
        <IconAddressBook size={22} aria-hidden color="var(--mantine-primary-color-filled)" />
        <Title order={2} size="h4">
          {t('contacts.title')}
        </Title>
      </Group>
      {contacts.isPending ? (
        <Loader size="sm" aria-label={t('common.loading')} />
      ) : contacts.isError ? (
        <Alert color="red" variant="light" title={t('contacts.loadFailed')}>
          <Button size="xs" variant="default" onClick={() => void contacts.refetch()}>
            {t('common.tryAgain')}
          </Button>
        </Alert>
      ) : contacts.data.length === 0 ? (
        <Text size="sm">{t('contacts.empty')}</Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('contacts.title')}>
          {contacts.data.map((contact) => (
            <Group key={contact.id} component="li" justify="space-between" wrap="nowrap">
              <div>
                <Text fw={600} size="sm">
                  {contact.companyName}
                </Text>
                <Text size="xs" c="gray.7">
                  {[contact.contactName, contact.phone].filter(Boolean).join(' · ')}
                </Text>
              </div>
              <ActionIcon variant="subtle" color="red" onClick={() => setToDelete(contact)} aria-label={t('contacts.deleteLabel', { company: contact.companyName })}>
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}

      <form onSubmit={submit} noValidate aria-label={t('contacts.add')}>
        <Title order={3} size="h5" mt="lg" mb="xs">
          {t('contacts.add')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TextInput label={t('contacts.company')} withAsterisk value={values.companyName} onChange={set('companyName')} error={errors.companyName} />
          <TextInput label={t('contacts.name')} value={values.contactName} onChange={set('contactName')} error={errors.contactName} />
          <TextInput label={t('contacts.phone')} type="tel" value={values.phone} onChange={set('phone')} error={errors.phone} />
        </SimpleGrid>
        <Button type="submit" mt="sm" loading={save.isPending}>
          {t('contacts.save')}
        </Button>
      </form>

      <ConfirmDelete
        what={toDelete?.companyName ?? ''}
        opened={!!toDelete}
        isBusy={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() =>
          toDelete &&
          remove.mutate(toDelete.id, {
            onSuccess: () => setToDelete(null),
            onError: (error) => toast.error(t('saved.deleteFailed'), errorMessage(error, t('saved.deleteFailed'))),
          })
        }
      />
    </Card>
  );
}
