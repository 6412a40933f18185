import { errorMessage } from '../../../lib/api-client';
import { useRebookPrefill } from '../api/get-rebook-prefill';
import { useT } from '../../../i18n/index';

/** Request-form values (the form's own field names), all but the date and the slot. */
export type RebookFormValues = {
  siteId: string;
  tsrNumber: string;
  tsrSystemType: string;
  tenantName: string;
  contactName: string;
  tenantEmail: string;
  tenantPhone: string;
  bookingType: 'delivery' | 'pickup' | 'both';
  expectedDurationMin: number;
  vehicleType: string;
  vehicleRegistration: string;
  vehicleHeightM: number;
  vehicleLengthM: number | string;
  specialAccessNeeds: string[];
  goodsDescription: string;
};

/**
 * `/book/request?rebook=<id>`: the signed-in haulier's earlier booking as the form's starting values,
 * its organization, and a message when it cannot be used (signed out, not theirs). Idle without an id.
 */
export function useRebookValues(bookingId: string | null): {
  isActive: boolean;
  isLoading: boolean;
  orgId: string | null;
  values: RebookFormValues | null;
  notice: string | null;
  failure: string | null;
} {
  const { t } = useT('account');
  const prefill = useRebookPrefill(bookingId);
  if (!bookingId) return { isActive: false, isLoading: false, orgId: null, values: null, notice: null, failure: null };
  if (prefill.isPending) return { isActive: true, isLoading: true, orgId: null, values: null, notice: null, failure: null };
  if (prefill.isError) {
    return { isActive: true, isLoading: false, orgId: null, values: null, notice: null, failure: errorMessage(prefill.error, t('rebook.failed')) };
  }
  const p = prefill.data;
  return {
    isActive: true,
    isLoading: false,
    orgId: p.orgId,
    notice: t('rebook.notice'),
    failure: null,
    values: {
      siteId: p.siteId ?? '',
      tsrNumber: p.tsrNumber,
      tsrSystemType: p.tsrSystemType ?? '',
      tenantName: p.tenantName,
      contactName: p.contactName ?? '',
      tenantEmail: p.tenantEmail,
      tenantPhone: p.tenantPhone ?? '',
      bookingType: (['delivery', 'pickup', 'both'].includes(p.bookingType) ? p.bookingType : 'delivery') as RebookFormValues['bookingType'],
      expectedDurationMin: p.expectedDurationMin,
      vehicleType: p.vehicleType,
      vehicleRegistration: p.vehicleRegistration,
      vehicleHeightM: p.vehicleHeightM,
      vehicleLengthM: p.vehicleLengthM ?? '',
      specialAccessNeeds: p.specialAccessNeeds,
      goodsDescription: p.goodsDescription ?? '',
    },
  };
}
