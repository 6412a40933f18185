import { Button, Group, Modal, Text } from '@mantine/core';
import { useT } from '../../../i18n/index';

/** "Delete …?" with Cancel focused first, so Enter never deletes by accident. */
export function ConfirmDelete({ what, opened, isBusy, onCancel, onConfirm }: { what: string; opened: boolean; isBusy: boolean; onCancel: () => void; onConfirm: () => void }) {
  const { t } = useT('account');
  return (
    <Modal opened={opened} onClose={onCancel} title={t('saved.deleteTitle')} centered>
      <Text size="sm">{t('saved.deleteBody', { what })}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onCancel} data-autofocus>
          {t('common.cancel')}
        </Button>
        <Button color="red" loading={isBusy} onClick={onConfirm}>
          {t('saved.delete')}
        </Button>
      </Group>
    </Modal>
  );
}
