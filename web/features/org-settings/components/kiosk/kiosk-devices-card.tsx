import { Alert, Button, Group, Modal, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceTablet, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { kioskDeviceCreateSchema, type CreatedKioskDevice, type KioskDevice, type KioskDeviceCreateInput } from '../../../../../domain/kiosk';
import { SecretOnce } from '../../../../components/ui/secret-once';
import { SelectField } from '../../../../components/ui/select-field';
import { errorMessage } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../../lib/zod-form';
import { useCreateKioskDevice, useKioskDevices, useRevokeKioskDevice } from '../../api/kiosk-devices-api';
import { SiteSecretsTable, type SiteSecretsWords } from '../site-secrets-table';

// Gate kiosks (issue 26, decision 041): a tablet at a site's gate house on which drivers check
// themselves in. Registered here for one site; its secret is shown once (with a link that sets the
// tablet up), revoked here at once.

type Site = { id: string; name: string };

/** The link that sets a tablet up: the secret in the fragment, which never reaches a server log. */
export const kioskSetupLink = (secret: string) => `${window.location.origin}/kiosk#token=${secret}`;

const validate = zodFormValidate(kioskDeviceCreateSchema);

const WORDS: SiteSecretsWords = {
  plural: 'kiosks',
  tableLabel: 'Gate kiosks',
  secretColumn: 'Secret',
  empty: 'No kiosks yet. Register a tablet at a gate house so drivers can check themselves in.',
  noneActive: 'No active kiosks.',
};

function CreateKioskModal({ orgId, sites, defaultSiteId, opened, onClose }: { orgId: string; sites: Site[]; defaultSiteId: string; opened: boolean; onClose: () => void }) {
  const form = useForm<KioskDeviceCreateInput>({ mode: 'controlled', initialValues: { siteId: defaultSiteId, name: '' }, validate });
  const create = useCreateKioskDevice(orgId);
  const [created, setCreated] = useState<CreatedKioskDevice | null>(null);

  const close = () => {
    setCreated(null);
    form.reset();
    create.reset();
    onClose();
  };
  const submit = (values: KioskDeviceCreateInput) =>
    create.mutate(values, {
      onSuccess: (device) => {
        setCreated(device);
        toast.success('Kiosk registered', `${device.name} for ${device.siteName}.`);
      },
      onError: (error) => {
        if (!applyApiFieldErrors(error, form.setFieldError)) form.setErrors({ form: errorMessage(error, 'The kiosk could not be registered.') });
      },
    });

  return (
    <Modal opened={opened} onClose={close} title={created ? 'Set up the kiosk tablet' : 'Register a gate kiosk'} size="lg" closeOnClickOutside={!created}>
      {created ? (
        <SecretOnce
          warning="This secret will not be shown again. Open the setup link on the tablet (or paste the secret at /kiosk); if it is lost, revoke the kiosk and register it again."
          label={`Kiosk secret for ${created.name} (${created.siteName})`}
          secret={created.secret}
          copyLabel="Copy secret"
          testId="kiosk-secret"
          example={{ title: 'Setup link for the tablet', text: kioskSetupLink(created.secret) }}
          onDone={close}
        />
      ) : (
        <form noValidate onSubmit={form.onSubmit(submit)}>
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              Drivers check themselves in on the kiosk with their arrival code or plate, for this site only. No staff sign-in is needed on the tablet.
            </Text>
            <SelectField
              label="Site"
              withAsterisk
              data={[{ value: '', label: 'Choose a site' }, ...sites.map((s) => ({ value: s.id, label: s.name }))]}
              {...form.getInputProps('siteId')}
            />
            <TextInput label="Name" placeholder="Gate house tablet" withAsterisk data-autofocus {...form.getInputProps('name')} />
            {form.errors.form ? (
              <Alert color="red" role="alert" title="Not registered">
                {form.errors.form}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending} leftSection={<IconDeviceTablet size={16} aria-hidden />}>
                Register kiosk
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function RevokeModal({ orgId, device, onClose }: { orgId: string; device: KioskDevice | null; onClose: () => void }) {
  const revoke = useRevokeKioskDevice(orgId);
  return (
    <Modal opened={!!device} onClose={onClose} title="Revoke this kiosk?">
      {device ? (
        <Stack gap="md">
          <Text size="sm">
            <b>{device.name}</b> ({device.siteName}, ending {device.hint}) stops working at once: drivers can no longer check in on it. This cannot be undone.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Keep it
            </Button>
            <Button
              color="red.9"
              loading={revoke.isPending}
              onClick={() =>
                revoke.mutate(device.id, {
                  onSuccess: () => {
                    toast.success('Kiosk revoked', `${device.name} no longer works.`);
                    onClose();
                  },
                  onError: (e) => toast.error('Kiosk not revoked', errorMessage(e, 'The kiosk could not be revoked.')),
                })
              }
            >
              Revoke kiosk
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

export function KioskDevicesCard({ orgId, sites, selectedSiteId }: { orgId: string; sites: Site[]; selectedSiteId: string | null }) {
  const devices = useKioskDevices(orgId);
  const [isCreating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<KioskDevice | null>(null);
  const [showRevoked, setShowRevoked] = useState(false);
  const all = devices.data ?? [];
  const revokedCount = all.filter((d) => d.revokedAt).length;
  const defaultSite = sites.find((s) => s.id === selectedSiteId) ?? sites[0];

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="kiosk-devices-title">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <div>
            <Title order={2} size="h4" id="kiosk-devices-title">
              Gate kiosks
            </Title>
            <Text size="sm" c="dimmed">
              Tablets at a gate house where drivers check in by QR code, arrival code or plate. Revoke a kiosk to stop it at once.
            </Text>
          </div>
          <Group gap="md">
            {revokedCount > 0 ? <Switch size="sm" label={`Show revoked (${revokedCount})`} checked={showRevoked} onChange={(e) => setShowRevoked(e.currentTarget.checked)} /> : null}
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)} disabled={sites.length === 0}>
              Register kiosk
            </Button>
          </Group>
        </Group>
        {sites.length === 0 ? (
          <Alert color="gray" variant="light">
            Add a site first: a kiosk belongs to a site.
          </Alert>
        ) : null}
        <SiteSecretsTable query={devices} showRevoked={showRevoked} words={WORDS} onRevoke={setRevoking} />
      </Stack>
      <CreateKioskModal
        key={isCreating ? 'open' : 'closed'}
        orgId={orgId}
        sites={sites}
        defaultSiteId={defaultSite?.id ?? ''}
        opened={isCreating}
        onClose={() => setCreating(false)}
      />
      <RevokeModal orgId={orgId} device={revoking} onClose={() => setRevoking(null)} />
    </Paper>
  );
}
