import { ActionIcon, Alert, Button, Group, List, Paper, Stack, Text } from '@mantine/core';
import { IconFileText, IconUpload, IconX } from '@tabler/icons-react';
import { useRef, useState, type DragEvent } from 'react';
import { MAX_FILES } from '../../../../domain/constants';
import { DOCUMENT_ACCEPT_ATTRIBUTE, addDocuments } from '../utils/documents';
import { alertStyles } from '../utils/styles';
import { formatFileSize } from '../utils/format';
import { useT } from '../../../i18n/index';
import { useTranslateMessage } from '../../../i18n/validation';

export type DocumentUploadProps = {
  files: File[];
  onChange: (files: File[]) => void;
  disabled?: boolean;
};

/**
 * Consignment documents: pick or drop several, each removable; wrong types and oversize files are
 * refused with a message each (addDocuments). A native file input and the browser's drag-and-drop
 * events: a drop-zone library would add 60 KB to the portal for the same behaviour.
 */
export function DocumentUpload({ files, onChange, disabled }: DocumentUploadProps) {
  const [errors, setErrors] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const { t } = useT('portal');
  const translateMessage = useTranslateMessage();

  const add = (incoming: File[]) => {
    const result = addDocuments(files, incoming);
    setErrors(result.errors);
    if (result.files.length !== files.length) onChange(result.files);
  };

  const remove = (index: number) => {
    setErrors([]);
    onChange(files.filter((_, i) => i !== index));
  };

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (disabled || !event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) add(Array.from(event.dataTransfer?.files ?? []));
  };

  return (
    <Stack gap="sm">
      <Paper
        p="lg"
        radius="md"
        // The drop area is for the mouse; the button inside is the keyboard and screen-reader way in.
        onDragOver={onDragOver}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-dragging={dragging || undefined}
        style={{
          border: `1px dashed ${dragging ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-gray-5)'}`,
          background: dragging ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-gray-0)',
          opacity: disabled ? 0.6 : 1,
        }}
      >
        <input
          ref={inputRef}
          type="file"
          name="documents"
          aria-label={t('documents.input')}
          multiple
          accept={DOCUMENT_ACCEPT_ATTRIBUTE}
          disabled={disabled}
          hidden
          onChange={(event) => {
            add(Array.from(event.currentTarget.files ?? []));
            // The same file picked again after removing it must fire a change again.
            event.currentTarget.value = '';
          }}
        />
        <Group justify="center" gap="md" wrap="wrap">
          <IconUpload size={32} stroke={1.5} color="var(--mantine-primary-color-filled)" aria-hidden />
          <div>
            <Text size="sm" fw={500}>
              {t('documents.drop')}
            </Text>
            <Text size="xs" c="gray.7" id="document-upload-hint">
              {t('documents.hint', { max: MAX_FILES })}
            </Text>
          </div>
          <Button
            variant="default"
            onClick={() => inputRef.current?.click()}
            disabled={disabled}
            aria-describedby="document-upload-hint"
          >
            {t('documents.choose')}
          </Button>
        </Group>
      </Paper>

      {errors.length > 0 ? (
        <Alert color="red" variant="light" styles={alertStyles} title={t('documents.notAdded')} role="alert" p="sm">
          <List size="sm" spacing={2}>
            {errors.map((e) => (
              <List.Item key={e}>{translateMessage(e)}</List.Item>
            ))}
          </List>
        </Alert>
      ) : null}

      {files.length > 0 ? (
        <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('documents.attached')}>
          {files.map((file, index) => (
            <Paper key={`${file.name}-${file.size}-${file.lastModified}`} component="li" withBorder px="sm" py={6} radius="sm">
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                  <IconFileText size={18} aria-hidden style={{ flexShrink: 0 }} />
                  <Text size="sm" truncate="end">
                    {file.name}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                    {formatFileSize(file.size)}
                  </Text>
                </Group>
                <ActionIcon
                  variant="subtle"
                  color="red.9"
                  onClick={() => remove(index)}
                  aria-label={t('documents.remove', { name: file.name })}
                  disabled={disabled}
                >
                  <IconX size={16} aria-hidden />
                </ActionIcon>
              </Group>
            </Paper>
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}
