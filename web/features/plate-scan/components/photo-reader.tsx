import { Alert, Button, FileButton, Group, Image, Stack, Text } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { NOTICE_STYLES } from './notice-styles';

type Props = {
  isSending: boolean;
  /** Sends the photo to the server's plate reader; rejects with the server's message. */
  onPhoto: (file: File) => Promise<unknown>;
};

/**
 * A photo of the plate (taken with the phone's camera app or chosen from the device), read by the
 * server's OCR: one request, the photo's type checked by its bytes with the server's own message,
 * the reader already running there, and nothing for a phone to download first.
 */
export function PhotoReader({ isSending, onPhoto }: Props) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** Clears the file input, so choosing the same photo again is a new read. */
  const resetRef = useRef<() => void>(null);

  useEffect(() => {
    if (!file || !file.type.startsWith('image/')) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const choose = async (chosen: File | null) => {
    if (!chosen) return;
    setFile(chosen);
    setError(null);
    resetRef.current?.();
    try {
      await onPhoto(chosen);
    } catch (cause) {
      setError(errorMessage(cause, 'The photo could not be read. Try another photo or type the plate.'));
    }
  };

  return (
    <Stack gap="sm">
      <Text size="sm">Take a photo of the plate with the device’s camera, or choose one. The plate should be sharp and fill a good part of the picture.</Text>
      <Group gap="sm" wrap="wrap">
        <FileButton onChange={(chosen) => void choose(chosen)} accept="image/*" resetRef={resetRef}>
          {(props) => (
            <Button {...props} size="lg" leftSection={<IconPhoto size={20} aria-hidden />} loading={isSending}>
              Upload a photo
            </Button>
          )}
        </FileButton>
        {file ? (
          <Text size="sm" c="dark.4" style={{ overflowWrap: 'anywhere' }} data-testid="photo-name">
            {file.name}
          </Text>
        ) : null}
      </Group>
      {preview ? <Image src={preview} alt="The photo sent" mah={180} w="auto" fit="contain" radius="sm" style={{ alignSelf: 'flex-start', maxWidth: '100%' }} /> : null}
      {isSending ? (
        <Text size="sm" c="dark.4" aria-live="polite">
          Reading the plate in the photo…
        </Text>
      ) : null}
      {error ? (
        <Alert styles={NOTICE_STYLES} color="red" variant="light" role="alert" title="Photo not read" data-testid="photo-error">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
