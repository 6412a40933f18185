import { ActionIcon, Alert, Button, Card, Group, Loader, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconTrash, IconTruck } from '@tabler/icons-react';
import { useState } from 'react';
import { VEHICLE_TYPES } from '../../../../domain/enums';
import { savedVehicleInputSchema, type SavedVehicle } from '../../../../domain/haulier-accounts';
import { SelectField } from '../../../components/ui/select-field';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useDeleteSavedVehicle, useSaveVehicle, useSavedVehicles } from '../api/saved-vehicles';
import { useT } from '../../../i18n/index';
import { ConfirmDelete } from './confirm-delete';

const EMPTY = { label: '', vehicleType: '', vehicleRegistration: '', vehicleHeightM: '', vehicleLengthM: '' };

/** The haulier's saved vehicles: listed, added, deleted (with a confirmation). */
export function SavedVehiclesCard() {
  const { t } = useT('account');
  const vehicles = useSavedVehicles();
  const save = useSaveVehicle();
  const remove = useDeleteSavedVehicle();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [toDelete, setToDelete] = useState<SavedVehicle | null>(null);
  const set = (key: keyof typeof EMPTY) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setValues({ ...values, [key]: event.currentTarget.value });

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = savedVehicleInputSchema.safeParse(values);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(values, {
      onSuccess: (vehicle) => {
        setValues(EMPTY);
        toast.success(t('vehicles.savedTitle'), t('vehicles.savedBody', { registration: vehicle.vehicleRegistration }));
      },
      onError: (error) => toast.error(t('vehicles.saveFailed'), errorMessage(error, t('vehicles.saveFailed'))),
    });
  };

  return (
    <Card withBorder radius="md" padding="lg">
      <Group gap="xs" mb="sm">
        <IconTruck size={22} aria-hidden color="var(--mantine-primary-color-filled)" />
        <Title order={2} size="h4">
          {t('vehicles.title')}
        </Title>
      </Group>
      {vehicles.isPending ? (
        <Loader size="sm" aria-label={t('common.loading')} />
      ) : vehicles.isError ? (
        <Alert color="red" variant="light" title={t('vehicles.loadFailed')}>
          <Button size="xs" variant="default" onClick={() => void vehicles.refetch()}>
            {t('common.tryAgain')}
          </Button>
        </Alert>
      ) : vehicles.data.length === 0 ? (
        <Text size="sm">{t('vehicles.empty')}</Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('vehicles.title')}>
          {vehicles.data.map((vehicle) => (
            <Group key={vehicle.id} component="li" justify="space-between" wrap="nowrap">
              <div>
                <Text fw={600} size="sm">
                  {vehicle.vehicleRegistration}
                  {vehicle.label ? ` · ${vehicle.label}` : ''}
                </Text>
                <Text size="xs" c="gray.7">
                  {t(`vehicleType.${vehicle.vehicleType}`)} · {t('vehicles.height', { height: vehicle.vehicleHeightM })}
                  {vehicle.vehicleLengthM !== null ? ` · ${t('vehicles.length', { length: vehicle.vehicleLengthM })}` : ''}
                </Text>
              </div>
              <ActionIcon variant="subtle" color="red" onClick={() => setToDelete(vehicle)} aria-label={t('vehicles.deleteLabel', { registration: vehicle.vehicleRegistration })}>
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}

      <form onSubmit={submit} noValidate aria-label={t('vehicles.add')}>
        <Title order={3} size="h5" mt="lg" mb="xs">
          {t('vehicles.add')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t('vehicles.label')} value={values.label} onChange={set('label')} error={errors.label} />
          <SelectField
            label={t('vehicles.type')}
            withAsterisk
            value={values.vehicleType}
            onChange={set('vehicleType')}
            error={errors.vehicleType}
            data={[{ value: '', label: t('vehicles.chooseType') }, ...VEHICLE_TYPES.map((type) => ({ value: type, label: t(`vehicleType.${type}`) }))]}
          />
          <TextInput label={t('vehicles.registration')} withAsterisk value={values.vehicleRegistration} onChange={set('vehicleRegistration')} error={errors.vehicleRegistration} />
          <TextInput label={t('vehicles.heightM')} withAsterisk type="number" step="0.1" value={values.vehicleHeightM} onChange={set('vehicleHeightM')} error={errors.vehicleHeightM} />
          <TextInput label={t('vehicles.lengthM')} type="number" step="0.1" value={values.vehicleLengthM} onChange={set('vehicleLengthM')} error={errors.vehicleLengthM} />
        </SimpleGrid>
        <Button type="submit" mt="sm" loading={save.isPending}>
          {t('vehicles.save')}
        </Button>
      </form>

      <ConfirmDelete
        what={toDelete?.vehicleRegistration ?? ''}
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
