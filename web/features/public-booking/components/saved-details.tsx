import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconBookmark, IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { SelectField } from '../../../components/ui/select-field';
import { useSaveVehicleOffer, useSavedDetails } from '../../haulier-account/hooks/use-saved-details';
import type { BookingFormValues } from './booking-request-form';

// A signed-in haulier's saved vehicles and contacts on the request form, and the offer to save the
// vehicle after a booking (issue 27). The texts and data come from the haulier-account feature.

/** "Use a saved vehicle" / "Use a saved contact": choosing one fills the form's fields. Nothing when signed out. */
export function SavedDetailsPicker({ apply }: { apply: (values: Partial<BookingFormValues>) => void }) {
  const saved = useSavedDetails();
  const [vehicleId, setVehicleId] = useState('');
  const [contactId, setContactId] = useState('');
  if (!saved.isSignedIn) return null;
  const isEmpty = saved.vehicleOptions.length === 0 && saved.contactOptions.length === 0;
  return (
    <Card withBorder radius="md" padding="lg" aria-label={saved.texts.title} component="section">
      <Group gap="xs" mb="xs">
        <IconBookmark size={20} aria-hidden color="var(--mantine-primary-color-filled)" />
        <Text fw={700}>{saved.texts.title}</Text>
      </Group>
      {isEmpty ? (
        <Text size="sm">
          {saved.texts.empty}{' '}
          <Anchor component={Link} to="/book/account">
            {saved.texts.manage}
          </Anchor>
        </Text>
      ) : (
        <>
          <Text size="sm" mb="sm">
            {saved.texts.description}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {saved.vehicleOptions.length > 0 ? (
              <SelectField
                label={saved.texts.vehicle}
                value={vehicleId}
                onChange={(e) => {
                  const id = e.currentTarget.value;
                  setVehicleId(id);
                  const values = saved.vehicleValues(id);
                  if (values) apply(values);
                }}
                data={[{ value: '', label: saved.texts.vehicleNone }, ...saved.vehicleOptions]}
              />
            ) : null}
            {saved.contactOptions.length > 0 ? (
              <SelectField
                label={saved.texts.contact}
                value={contactId}
                onChange={(e) => {
                  const id = e.currentTarget.value;
                  setContactId(id);
                  const values = saved.contactValues(id);
                  if (values) apply(values);
                }}
                data={[{ value: '', label: saved.texts.contactNone }, ...saved.contactOptions]}
              />
            ) : null}
          </SimpleGrid>
        </>
      )}
    </Card>
  );
}

/** After a booking: "Save this vehicle" for a signed-in haulier whose vehicle is not saved yet. */
export function SaveVehicleOffer({ vehicle }: { vehicle: Parameters<typeof useSaveVehicleOffer>[0] }) {
  const offer = useSaveVehicleOffer(vehicle);
  if (offer.isSaved) {
    return (
      <Alert color="green" variant="light" icon={<IconCheck size={18} aria-hidden />} mt="lg" role="status">
        {offer.texts.saved}
      </Alert>
    );
  }
  if (!offer.isOffered) return null;
  return (
    <Card withBorder radius="md" padding="lg" mt="lg">
      <Stack gap="xs" align="flex-start">
        <Text fw={700}>{offer.texts.title}</Text>
        <Text size="sm">{offer.texts.body}</Text>
        {offer.failure ? (
          <Text size="sm" c="red.9" role="alert">
            {offer.failure}
          </Text>
        ) : null}
        <Button onClick={offer.save} loading={offer.isBusy} leftSection={<IconBookmark size={16} aria-hidden />}>
          {offer.texts.save}
        </Button>
      </Stack>
    </Card>
  );
}
