import { Alert, Anchor, Button, Card, Chip, Group, Loader, SimpleGrid, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router';
import { VEHICLE_TYPES } from '../../../../domain/enums';
import { standingRequestSchema, type StandingRequestInput } from '../../../../domain/haulier-accounts';
import { SelectField } from '../../../components/ui/select-field';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { applyApiFieldErrors } from '../../../lib/zod-form';
import { useT } from '../../../i18n/index';
import { useTranslateMessage } from '../../../i18n/validation';
import { useSavedVehicles } from '../api/saved-vehicles';
import { useRequestStandingBooking, useStandingPlaces } from '../api/standing-bookings';
import { weekdayName } from '../utils/format-site-time';

// A signed-in haulier asks an organization for a standing booking (issue 27, decision 045): checked
// with the API's own schema (domain/haulier-accounts standingRequestSchema) before it is sent; the
// organization's admin approves or declines it.

const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

const EMPTY = {
  orgId: '',
  siteId: '',
  weekdays: [] as number[],
  startLocal: '',
  durationMin: '60',
  startsOn: '',
  endsOn: '',
  isOpenEnded: true,
  tsrNumber: '',
  tenantName: '',
  contactName: '',
  tenantPhone: '',
  vehicleType: '',
  vehicleRegistration: '',
  vehicleHeightM: '',
  vehicleLengthM: '',
  notes: '',
};
type Values = typeof EMPTY;

const orNone = (value: string) => (value.trim() === '' ? undefined : value);
const numberOrNone = (value: string) => (value.trim() === '' ? undefined : Number(value));

/** The form's values as the API's body. */
function toRequest(values: Values, language: string): StandingRequestInput {
  return {
    orgId: values.orgId,
    siteId: values.siteId,
    weekdays: values.weekdays,
    startLocal: orNone(values.startLocal) as string,
    durationMin: numberOrNone(values.durationMin) as number,
    startsOn: orNone(values.startsOn) as string,
    endsOn: values.isOpenEnded ? null : orNone(values.endsOn) ?? '',
    tsrNumber: values.tsrNumber,
    tenantName: values.tenantName,
    contactName: values.contactName,
    tenantPhone: orNone(values.tenantPhone),
    bookingType: 'delivery',
    vehicleType: values.vehicleType as StandingRequestInput['vehicleType'],
    vehicleRegistration: values.vehicleRegistration,
    vehicleHeightM: numberOrNone(values.vehicleHeightM) as number,
    vehicleLengthM: numberOrNone(values.vehicleLengthM),
    notes: orNone(values.notes),
    language: language as StandingRequestInput['language'],
  };
}

export function StandingRequestForm() {
  const { t, language } = useT('account');
  const translate = useTranslateMessage();
  const places = useStandingPlaces();
  const vehicles = useSavedVehicles();
  const request = useRequestStandingBooking();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [savedVehicleId, setSavedVehicleId] = useState('');
  const [failure, setFailure] = useState<{ title: string; message: string } | null>(null);
  const [isDone, setDone] = useState(false);

  // The value is read now: the updater may run after the event's dispatch, when currentTarget is null.
  const set = (key: keyof Values) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => {
    const value = event.currentTarget.value;
    setValues((v) => ({ ...v, [key]: value }));
  };
  const error = (key: string) => (errors[key] ? translate(errors[key]) : undefined);

  if (isDone) {
    return (
      <Alert color="green" variant="light" icon={<IconCircleCheck aria-hidden />} title={t('standing.requestedTitle')} role="status">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('standing.requestedBody')}</Text>
          <Group gap="sm">
            <Button component={Link} to="/book/account" size="xs">
              {t('standing.backToAccount')}
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={() => {
                setValues(EMPTY);
                setSavedVehicleId('');
                setDone(false);
              }}
            >
              {t('standing.requestAnother')}
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  }

  if (places.isPending) {
    return (
      <Group gap="xs">
        <Loader size="sm" />
        <Text size="sm">{t('common.loading')}</Text>
      </Group>
    );
  }
  if (places.isError) {
    return (
      <Alert color="red" variant="light" title={t('standing.placesFailed')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(places.error, t('standing.placesFailed'))}</Text>
          <Button size="xs" variant="default" onClick={() => void places.refetch()}>
            {t('common.tryAgain')}
          </Button>
        </Stack>
      </Alert>
    );
  }

  const sites = places.data.sites.filter((site) => site.orgId === values.orgId);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const body = toRequest(values, language);
    const found: Record<string, string> = {};
    if (!values.orgId) found.orgId = 'Organization is required';
    if (!values.siteId) found.siteId = 'Site is required';
    const parsed = standingRequestSchema.safeParse(body);
    if (!parsed.success) for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    request.mutate(body, {
      onSuccess: () => setDone(true),
      onError: (caught) => {
        if (caught instanceof ApiError && caught.status === 403) {
          setFailure({ title: t('standing.notAllowedTitle'), message: t('standing.notAllowed') });
          return;
        }
        const fieldErrors: Record<string, string> = {};
        if (applyApiFieldErrors(caught, (path, message) => (fieldErrors[path.split('.')[0]!] ??= message))) {
          setErrors(fieldErrors);
          return;
        }
        setFailure({ title: t('standing.failedTitle'), message: translate(errorMessage(caught, t('standing.failed'))) });
      },
    });
  };

  const vehicleOptions = (vehicles.data ?? []).map((v) => ({ value: v.id, label: v.label ? `${v.vehicleRegistration} · ${v.label}` : v.vehicleRegistration }));
  const useVehicle = (event: ChangeEvent<HTMLSelectElement>) => {
    const id = event.currentTarget.value;
    setSavedVehicleId(id);
    const vehicle = vehicles.data?.find((v) => v.id === id);
    if (vehicle) {
      setValues((v) => ({
        ...v,
        vehicleType: vehicle.vehicleType,
        vehicleRegistration: vehicle.vehicleRegistration,
        vehicleHeightM: String(vehicle.vehicleHeightM),
        vehicleLengthM: vehicle.vehicleLengthM === null ? '' : String(vehicle.vehicleLengthM),
      }));
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('standing.formLabel')}>
      <Stack gap="lg">
        {failure ? (
          <Alert color="red" variant="light" title={failure.title} role="alert" styles={{ title: { color: 'var(--mantine-color-red-9)' } }}>
            {failure.message}
          </Alert>
        ) : null}
        <Card withBorder radius="md" padding="lg">
          <Title order={2} size="h4" mb="sm">
            {t('standing.where')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <SelectField
              label={t('standing.organization')}
              withAsterisk
              value={values.orgId}
              onChange={(event) => {
                const orgId = event.currentTarget.value;
                setFailure(null);
                const only = places.data.sites.filter((site) => site.orgId === orgId);
                setValues((v) => ({ ...v, orgId, siteId: only.length === 1 ? only[0]!.id : '' }));
              }}
              error={error('orgId')}
              data={[{ value: '', label: t('standing.chooseOrganization') }, ...places.data.organizations.map((o) => ({ value: o.id, label: o.name }))]}
            />
            <SelectField
              label={t('standing.site')}
              withAsterisk
              value={values.siteId}
              onChange={set('siteId')}
              disabled={!values.orgId}
              error={error('siteId')}
              data={[{ value: '', label: t('standing.chooseSite') }, ...sites.map((s) => ({ value: s.id, label: s.name }))]}
            />
          </SimpleGrid>
        </Card>

        <Card withBorder radius="md" padding="lg">
          <Title order={2} size="h4" mb="sm">
            {t('standing.when')}
          </Title>
          <Stack gap="sm">
            <div role="group" aria-labelledby="standing-weekdays-label">
              <Text size="sm" fw={500} mb={4} id="standing-weekdays-label">
                {t('standing.weekdays')}{' '}
                <Text span c="red" aria-hidden>
                  *
                </Text>
              </Text>
              <Chip.Group multiple value={values.weekdays.map(String)} onChange={(days) => setValues((v) => ({ ...v, weekdays: days.map(Number).sort((a, b) => a - b) }))}>
                <Group gap="xs">
                  {ISO_WEEKDAYS.map((day) => (
                    <Chip key={day} value={String(day)} size="sm">
                      {weekdayName(day, language)}
                    </Chip>
                  ))}
                </Group>
              </Chip.Group>
              {error('weekdays') ? (
                <Text size="xs" c="red" mt={4} role="alert">
                  {error('weekdays')}
                </Text>
              ) : null}
            </div>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput label={t('standing.startLocal')} description={t('standing.siteTime')} withAsterisk type="time" value={values.startLocal} onChange={set('startLocal')} error={error('startLocal')} />
              <TextInput label={t('standing.duration')} withAsterisk type="number" min={5} max={1440} step={5} value={values.durationMin} onChange={set('durationMin')} error={error('durationMin')} />
              <TextInput label={t('standing.startsOn')} withAsterisk type="date" value={values.startsOn} onChange={set('startsOn')} error={error('startsOn')} />
              <Stack gap={6}>
                <Switch
                  label={t('standing.openEnded')}
                  checked={values.isOpenEnded}
                  onChange={(event) => {
                    const isOpenEnded = event.currentTarget.checked;
                    setValues((v) => ({ ...v, isOpenEnded }));
                  }}
                  mt={4}
                />
                {values.isOpenEnded ? null : <TextInput label={t('standing.endsOn')} withAsterisk type="date" value={values.endsOn} onChange={set('endsOn')} error={error('endsOn')} />}
              </Stack>
            </SimpleGrid>
          </Stack>
        </Card>

        <Card withBorder radius="md" padding="lg">
          <Title order={2} size="h4" mb="sm">
            {t('standing.details')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label={t('standing.reference')} withAsterisk value={values.tsrNumber} onChange={set('tsrNumber')} error={error('tsrNumber')} />
            <TextInput label={t('contacts.company')} withAsterisk value={values.tenantName} onChange={set('tenantName')} error={error('tenantName')} />
            <TextInput label={t('contacts.name')} withAsterisk value={values.contactName} onChange={set('contactName')} error={error('contactName')} />
            <TextInput label={t('contacts.phone')} type="tel" value={values.tenantPhone} onChange={set('tenantPhone')} error={error('tenantPhone')} />
          </SimpleGrid>
        </Card>

        <Card withBorder radius="md" padding="lg">
          <Title order={2} size="h4" mb="sm">
            {t('standing.vehicle')}
          </Title>
          <Stack gap="sm">
            {vehicleOptions.length > 0 ? (
              <SelectField label={t('request.useSavedVehicle')} value={savedVehicleId} onChange={useVehicle} data={[{ value: '', label: t('request.chooseSavedVehicle') }, ...vehicleOptions]} maw={420} />
            ) : vehicles.isSuccess ? (
              <Text size="sm" c="gray.7">
                {t('standing.noSavedVehicles')}
              </Text>
            ) : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <SelectField
                label={t('vehicles.type')}
                withAsterisk
                value={values.vehicleType}
                onChange={set('vehicleType')}
                error={error('vehicleType')}
                data={[{ value: '', label: t('vehicles.chooseType') }, ...VEHICLE_TYPES.map((type) => ({ value: type, label: t(`vehicleType.${type}`) }))]}
              />
              <TextInput label={t('vehicles.registration')} withAsterisk value={values.vehicleRegistration} onChange={set('vehicleRegistration')} error={error('vehicleRegistration')} />
              <TextInput label={t('vehicles.heightM')} withAsterisk type="number" step="0.1" value={values.vehicleHeightM} onChange={set('vehicleHeightM')} error={error('vehicleHeightM')} />
              <TextInput label={t('vehicles.lengthM')} type="number" step="0.1" value={values.vehicleLengthM} onChange={set('vehicleLengthM')} error={error('vehicleLengthM')} />
            </SimpleGrid>
            <Textarea label={t('standing.note')} autosize minRows={2} value={values.notes} onChange={set('notes')} error={error('notes')} />
          </Stack>
        </Card>

        <Group justify="space-between">
          <Anchor component={Link} to="/book/account" size="sm">
            {t('standing.backToAccount')}
          </Anchor>
          <Button type="submit" loading={request.isPending}>
            {t('standing.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
