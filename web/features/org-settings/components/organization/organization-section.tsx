import { Button, Center, FileButton, Grid, Group, Image, Loader, Modal, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import {
  LOGO_CONTENT_TYPES,
  LOGO_SIZE_MESSAGE,
  LOGO_TYPE_MESSAGE,
  MAX_LOGO_BYTES,
  orgProfileSchema,
  type OrgProfileDto,
  type OrgProfileInput,
} from '../../../../../domain/org-settings';
import { ApiError, errorMessage } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../../lib/zod-form';
import { useOrgSelection } from '../../../org/hooks/use-org-selection';
import { settingsLoadState } from './settings-load-state';
import { useLogoUrl, useOrgSettings, useRemoveLogo, useUpdateProfile, useUploadLogo } from '../../api/settings-api';

// Settings › Organization: the organization's name, how to reach it, and its logo.

type ProfileValues = { name: string; contactEmail: string; contactPhone: string; address: string };

const toValues = (p: OrgProfileDto): ProfileValues => ({
  name: p.name,
  contactEmail: p.contactEmail ?? '',
  contactPhone: p.contactPhone ?? '',
  address: p.address ?? '',
});

const validateProfile = zodFormValidate(orgProfileSchema);

function ProfileForm({ orgId, profile }: { orgId: string; profile: OrgProfileDto }) {
  const form = useForm<ProfileValues>({ mode: 'controlled', initialValues: toValues(profile), validate: (values) => validateProfile(values) });
  const save = useUpdateProfile(orgId);
  const submit = (values: ProfileValues) =>
    save.mutate(values satisfies OrgProfileInput, {
      onSuccess: (view) => {
        const next = toValues(view.profile);
        form.setValues(next);
        form.resetDirty(next);
        toast.success('Profile saved', 'The organization’s details are up to date.');
      },
      onError: (error) => {
        applyApiFieldErrors(error, form.setFieldError);
        toast.error('Profile not saved', errorMessage(error, 'The profile could not be saved.'));
      },
    });
  return (
    <form noValidate onSubmit={form.onSubmit(submit)} aria-labelledby="org-profile-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="org-profile-title">
          Profile
        </Title>
        <TextInput label="Organization name" withAsterisk autoComplete="organization" {...form.getInputProps('name')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Contact email" type="email" autoComplete="email" {...form.getInputProps('contactEmail')} />
          <TextInput label="Contact phone" type="tel" autoComplete="tel" {...form.getInputProps('contactPhone')} />
        </SimpleGrid>
        <TextInput label="Address" autoComplete="street-address" {...form.getInputProps('address')} />
        <Group justify="flex-end">
          <Button variant="default" disabled={!form.isDirty() || save.isPending} onClick={() => form.reset()}>
            Discard changes
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
            Save profile
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** What the browser can tell before sending (the server checks the content itself). */
function precheck(file: File): string | null {
  if (file.size > MAX_LOGO_BYTES) return LOGO_SIZE_MESSAGE;
  if (file.type && !(LOGO_CONTENT_TYPES as readonly string[]).includes(file.type)) return LOGO_TYPE_MESSAGE;
  return null;
}

function LogoCard({ orgId, profile }: { orgId: string; profile: OrgProfileDto }) {
  const logo = useLogoUrl(orgId, profile.logoVersion);
  const upload = useUploadLogo(orgId);
  const remove = useRemoveLogo(orgId);
  const [error, setError] = useState<string | null>(null);
  const [isConfirmOpen, setConfirmOpen] = useState(false);

  const choose = (file: File | null) => {
    if (!file) return;
    const problem = precheck(file);
    setError(problem);
    if (problem) return;
    upload.mutate(file, {
      onSuccess: () => toast.success('Logo updated', 'The new logo is saved.'),
      onError: (e) => {
        const message = e instanceof ApiError ? e.message : 'The logo could not be uploaded.';
        setError(message);
        toast.error('Logo not saved', message);
      },
    });
  };

  return (
    <Stack gap="sm" aria-labelledby="org-logo-title" component="section">
      <Title order={2} size="h4" id="org-logo-title">
        Logo
      </Title>
      <Paper withBorder radius="md" h={140} w={240} p="sm" bg="gray.0">
        <Center h="100%">
          {logo.isLoading ? (
            <Loader size="sm" aria-label="Loading the logo" />
          ) : logo.url ? (
            <Image src={logo.url} alt={`${profile.name} logo`} fit="contain" h={120} w="auto" maw={220} />
          ) : logo.isError ? (
            <Text size="sm" c="red.8">
              The logo could not be loaded.
            </Text>
          ) : (
            <Stack gap={4} align="center">
              <IconPhoto size={32} aria-hidden color="var(--mantine-color-gray-6)" />
              <Text size="sm" c="dimmed">
                No logo yet
              </Text>
            </Stack>
          )}
        </Center>
      </Paper>
      <Text size="xs" c="dimmed">
        PNG, JPEG or WebP, at most 1 MB.
      </Text>
      {error ? (
        <Text size="sm" c="red.8" role="alert">
          {error}
        </Text>
      ) : null}
      <Group gap="sm">
        <FileButton onChange={choose} accept={LOGO_CONTENT_TYPES.join(',')}>
          {(props) => (
            <Button {...props} leftSection={<IconUpload size={16} aria-hidden />} loading={upload.isPending} variant="light">
              {profile.hasLogo ? 'Replace logo' : 'Upload logo'}
            </Button>
          )}
        </FileButton>
        {profile.hasLogo ? (
          <Button variant="outline" color="red.9" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setConfirmOpen(true)}>
            Remove
          </Button>
        ) : null}
      </Group>
      <Modal opened={isConfirmOpen} onClose={() => setConfirmOpen(false)} title="Remove the logo?">
        <Stack gap="md">
          <Text size="sm">The logo is deleted. You can upload a new one at any time.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmOpen(false)}>
              Keep it
            </Button>
            <Button
              color="red.9"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(undefined, {
                  onSuccess: () => {
                    setConfirmOpen(false);
                    setError(null);
                    toast.success('Logo removed', 'The organization has no logo now.');
                  },
                  onError: (e) => toast.error('Logo not removed', errorMessage(e, 'The logo could not be removed.')),
                })
              }
            >
              Remove logo
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

export function OrganizationSection() {
  const { selectedOrg } = useOrgSelection();
  const settings = useOrgSettings(selectedOrg?.id);
  const pending = settingsLoadState(!!selectedOrg, settings, 'the organization’s settings');
  if (pending || !selectedOrg || !settings.data) return pending;
  const { profile } = settings.data;
  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Paper withBorder p="lg" radius="md" h="100%">
          {/* A new organization chosen in the header starts a new form. */}
          <ProfileForm key={selectedOrg.id} orgId={selectedOrg.id} profile={profile} />
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Paper withBorder p="lg" radius="md" h="100%">
          <LogoCard orgId={selectedOrg.id} profile={profile} />
        </Paper>
      </Grid.Col>
    </Grid>
  );
}
