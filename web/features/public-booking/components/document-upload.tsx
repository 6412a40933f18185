import { ActionIcon, Alert, Button, Group, List, Paper, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconFileText, IconUpload, IconX } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { MAX_FILES } from '../../../../domain/constants';
import { DOCUMENT_ACCEPT, addDocuments } from '../utils/documents';
import { alertStyles } from '../utils/styles';
import { formatFileSize } from '../utils/format';

export type DocumentUploadProps = {
  files: File[];
  onChange: (files: File[]) => void;
  disabled?: boolean;
};

/** Consignment documents: pick or drop several, each removable; wrong types and oversize files are refused. */
export function DocumentUpload({ files, onChange, disabled }: DocumentUploadProps) {
  const [errors, setErrors] = useState<string[]>([]);
  const openRef = useRef<() => void>(null);

  const add = (incoming: File[]) => {
    const result = addDocuments(files, incoming);
    setErrors(result.errors);
    if (result.files.length !== files.length) onChange(result.files);
  };

  const remove = (index: number) => {
    setErrors([]);
    onChange(files.filter((_, i) => i !== index));
  };

  return (
    <Stack gap="sm">
      <Dropzone
        onDrop={add}
        // The picker filters by type; anything refused there still gets our own clear message.
        onReject={(rejections) => add(rejections.map((r) => r.file))}
        accept={DOCUMENT_ACCEPT}
        multiple
        disabled={disabled}
        openRef={openRef}
        // The drop area is for the mouse; the button inside is the keyboard and screen-reader way in.
        activateOnClick={false}
        activateOnKeyboard={false}
        inputProps={{ name: 'documents', 'aria-label': 'Documents' } as React.ComponentPropsWithoutRef<'input'>}
        p="lg"
      >
        <Group justify="center" gap="md" wrap="wrap">
          <IconUpload size={32} stroke={1.5} color="var(--mantine-primary-color-filled)" aria-hidden />
          <div>
            <Text size="sm" fw={500}>
              Drag and drop files here, or
            </Text>
            <Text size="xs" c="gray.7" id="document-upload-hint">
              PDF, DOC, DOCX, JPG, JPEG or PNG, max 10MB each, up to {MAX_FILES} files
            </Text>
          </div>
          <Button
            variant="default"
            onClick={() => openRef.current?.()}
            disabled={disabled}
            aria-describedby="document-upload-hint"
            style={{ pointerEvents: 'all' }}
          >
            Choose files
          </Button>
        </Group>
      </Dropzone>

      {errors.length > 0 ? (
        <Alert color="red" variant="light" styles={alertStyles} title="Some files were not added" role="alert" p="sm">
          <List size="sm" spacing={2}>
            {errors.map((e) => (
              <List.Item key={e}>{e}</List.Item>
            ))}
          </List>
        </Alert>
      ) : null}

      {files.length > 0 ? (
        <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Attached documents">
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
                  aria-label={`Remove ${file.name}`}
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
