import { Alert, Button, Code, Group, Modal, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { cameraTokenCreateSchema, type CameraToken, type CameraTokenCreateInput, type CreatedCameraToken } from '../../../../../domain/org-settings';
import { SelectField } from '../../../../components/ui/select-field';
import { errorMessage } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../../lib/zod-form';
import { useCameraTokens, useCreateCameraToken, useRevokeCameraToken } from '../../api/settings-api';
import { SecretOnce } from '../../../../components/ui/secret-once';
import { SiteSecretsTable, type SiteSecretsWords } from '../site-secrets-table';

// ANPR cameras post their plate reads to a per-site webhook with a token made here. The secret is
// shown once, when it is made; afterwards only its last four characters tell tokens apart.

type Site = { id: string; name: string };

/** The request a camera sends (shown with placeholders, or with a new token's own values). */
export function webhookExample(siteId: string, secret: string): string {
  return [
    `curl -X POST ${window.location.origin}/api/anpr/${siteId}/reads \\`,
    `  -H "Authorization: Bearer ${secret}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"plate": "ABC123", "capturedAt": "2026-01-31T08:15:00Z"}'`,
  ].join('\n');
}

const validate = zodFormValidate(cameraTokenCreateSchema);

const WORDS: SiteSecretsWords = {
  plural: 'camera tokens',
  tableLabel: 'Camera tokens',
  secretColumn: 'Token',
  empty: 'No camera tokens yet. Create one for each ANPR camera that should post plate reads.',
  noneActive: 'No active camera tokens.',
};

function CreateTokenModal({ orgId, sites, defaultSiteId, opened, onClose }: { orgId: string; sites: Site[]; defaultSiteId: string; opened: boolean; onClose: () => void }) {
  const form = useForm<CameraTokenCreateInput>({ mode: 'controlled', initialValues: { siteId: defaultSiteId, name: '' }, validate });
  const create = useCreateCameraToken(orgId);
  const [created, setCreated] = useState<CreatedCameraToken | null>(null);

  const close = () => {
    // The secret leaves the screen for good.
    setCreated(null);
    form.reset();
    create.reset();
    onClose();
  };
  const submit = (values: CameraTokenCreateInput) =>
    create.mutate(values, {
      onSuccess: (token) => {
        setCreated(token);
        toast.success('Camera token created', `${token.name} for ${token.siteName}.`);
      },
      onError: (error) => {
        if (!applyApiFieldErrors(error, form.setFieldError)) form.setErrors({ form: errorMessage(error, 'The token could not be created.') });
      },
    });

  return (
    <Modal opened={opened} onClose={close} title={created ? 'Copy the camera token' : 'New camera token'} size="lg" closeOnClickOutside={!created}>
      {created ? (
        <SecretOnce
          warning="This token will not be shown again. Store it in the camera’s webhook settings; if it is lost, revoke it and make a new one."
          label={`Token for ${created.name} (${created.siteName})`}
          secret={created.secret}
          copyLabel="Copy token"
          testId="camera-token-secret"
          example={{ title: 'Example call', text: webhookExample(created.siteId, created.secret) }}
          onDone={close}
        />
      ) : (
        <form noValidate onSubmit={form.onSubmit(submit)}>
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              A camera uses the token to post plate reads for one site.
            </Text>
            <SelectField
              label="Site"
              withAsterisk
              data={[{ value: '', label: 'Choose a site' }, ...sites.map((s) => ({ value: s.id, label: s.name }))]}
              {...form.getInputProps('siteId')}
            />
            <TextInput label="Name" placeholder="Gate 1 entry camera" withAsterisk data-autofocus {...form.getInputProps('name')} />
            {form.errors.form ? (
              <Alert color="red" role="alert" title="Not created">
                {form.errors.form}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending} leftSection={<IconKey size={16} aria-hidden />}>
                Create token
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function RevokeModal({ orgId, token, onClose }: { orgId: string; token: CameraToken | null; onClose: () => void }) {
  const revoke = useRevokeCameraToken(orgId);
  return (
    <Modal opened={!!token} onClose={onClose} title="Revoke this camera token?">
      {token ? (
        <Stack gap="md">
          <Text size="sm">
            <b>{token.name}</b> ({token.siteName}, ending {token.hint}) stops working at once: the camera’s next read is refused. This cannot be undone.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Keep it
            </Button>
            <Button
              color="red.9"
              loading={revoke.isPending}
              onClick={() =>
                revoke.mutate(token.id, {
                  onSuccess: () => {
                    toast.success('Token revoked', `${token.name} no longer works.`);
                    onClose();
                  },
                  onError: (e) => toast.error('Token not revoked', errorMessage(e, 'The token could not be revoked.')),
                })
              }
            >
              Revoke token
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

export function CameraTokensCard({ orgId, sites, selectedSiteId }: { orgId: string; sites: Site[]; selectedSiteId: string | null }) {
  const tokens = useCameraTokens(orgId);
  const [isCreating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<CameraToken | null>(null);
  const [showRevoked, setShowRevoked] = useState(false);
  const all = tokens.data ?? [];
  const revokedCount = all.filter((t) => t.revokedAt).length;
  const exampleSite = sites.find((s) => s.id === selectedSiteId) ?? sites[0];

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="camera-tokens-title">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <div>
            <Title order={2} size="h4" id="camera-tokens-title">
              Camera webhook tokens
            </Title>
            <Text size="sm" c="dimmed">
              One token per ANPR camera and site. Revoke a token to stop its camera at once.
            </Text>
          </div>
          <Group gap="md">
            {revokedCount > 0 ? (
              <Switch size="sm" label={`Show revoked (${revokedCount})`} checked={showRevoked} onChange={(e) => setShowRevoked(e.currentTarget.checked)} />
            ) : null}
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)} disabled={sites.length === 0}>
              New token
            </Button>
          </Group>
        </Group>
        {sites.length === 0 ? (
          <Alert color="gray" variant="light">
            Add a site first: tokens belong to a site.
          </Alert>
        ) : null}
        <SiteSecretsTable query={tokens} showRevoked={showRevoked} words={WORDS} onRevoke={setRevoking} />
        {exampleSite ? (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Example webhook call ({exampleSite.name})
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {webhookExample(exampleSite.id, '<token>')}
            </Code>
          </Stack>
        ) : null}
      </Stack>
      <CreateTokenModal
        key={isCreating ? 'open' : 'closed'}
        orgId={orgId}
        sites={sites}
        defaultSiteId={exampleSite?.id ?? ''}
        opened={isCreating}
        onClose={() => setCreating(false)}
      />
      <RevokeModal orgId={orgId} token={revoking} onClose={() => setRevoking(null)} />
    </Paper>
  );
}
