import { useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useHaulierMe } from '../api/get-haulier-me';
import { useSavedContacts } from '../api/saved-contacts';
import { useSaveVehicle, useSavedVehicles } from '../api/saved-vehicles';
import { useT } from '../../../i18n/index';

type Option = { value: string; label: string };
type VehicleValues = { vehicleType: string; vehicleRegistration: string; vehicleHeightM: number; vehicleLengthM: number | string };
type ContactValues = { tenantName: string; contactName: string; tenantPhone: string };

/**
 * What the request form offers a signed-in haulier: their saved vehicles and contacts as choices
 * (with the values each fills in, under the form's own field names) and the texts around them.
 * Nothing (isSignedIn false) for everyone else.
 */
export function useSavedDetails() {
  const { t } = useT('account');
  const me = useHaulierMe();
  const isSignedIn = !!me.data;
  const vehicles = useSavedVehicles(isSignedIn);
  const contacts = useSavedContacts(isSignedIn);
  const vehicleOptions: Option[] = (vehicles.data ?? []).map((v) => ({ value: v.id, label: v.label ? `${v.vehicleRegistration} · ${v.label}` : v.vehicleRegistration }));
  const contactOptions: Option[] = (contacts.data ?? []).map((c) => ({ value: c.id, label: c.contactName ? `${c.companyName} · ${c.contactName}` : c.companyName }));
  return {
    isSignedIn,
    email: me.data?.email ?? null,
    texts: {
      title: t('request.savedTitle'),
      description: t('request.savedDescription'),
      vehicle: t('request.useSavedVehicle'),
      vehicleNone: t('request.chooseSavedVehicle'),
      contact: t('request.useSavedContact'),
      contactNone: t('request.chooseSavedContact'),
      empty: t('request.savedEmpty'),
      manage: t('request.manageSaved'),
    },
    vehicleOptions,
    contactOptions,
    vehicleValues: (id: string): VehicleValues | null => {
      const v = vehicles.data?.find((item) => item.id === id);
      return v ? { vehicleType: v.vehicleType, vehicleRegistration: v.vehicleRegistration, vehicleHeightM: v.vehicleHeightM, vehicleLengthM: v.vehicleLengthM ?? '' } : null;
    },
    contactValues: (id: string): ContactValues | null => {
      const c = contacts.data?.find((item) => item.id === id);
      return c ? { tenantName: c.companyName, contactName: c.contactName ?? '', tenantPhone: c.phone ?? '' } : null;
    },
  };
}

/** After a successful booking: offer a signed-in haulier to save the vehicle it used (once). */
export function useSaveVehicleOffer(vehicle: { vehicleType: string; vehicleRegistration: string; vehicleHeightM: number; vehicleLengthM?: number | null } | null) {
  const { t } = useT('account');
  const me = useHaulierMe();
  const vehicles = useSavedVehicles(!!me.data);
  const save = useSaveVehicle();
  const [isDone, setDone] = useState(false);
  const isKnown = !!vehicle && (vehicles.data ?? []).some((v) => v.vehicleRegistration === vehicle.vehicleRegistration.toUpperCase());
  return {
    isOffered: !!me.data && !!vehicle && !isKnown && !isDone && vehicles.isSuccess,
    isSaved: isDone,
    isBusy: save.isPending,
    failure: save.isError ? errorMessage(save.error, t('vehicles.saveFailed')) : null,
    texts: { title: t('offer.title', { registration: vehicle?.vehicleRegistration ?? '' }), body: t('offer.body'), save: t('offer.save'), saved: t('offer.saved') },
    save: () => {
      if (!vehicle) return;
      save.mutate(
        { vehicleType: vehicle.vehicleType as 'rigid', vehicleRegistration: vehicle.vehicleRegistration, vehicleHeightM: vehicle.vehicleHeightM, vehicleLengthM: vehicle.vehicleLengthM ?? undefined },
        { onSuccess: () => setDone(true) },
      );
    },
  };
}
