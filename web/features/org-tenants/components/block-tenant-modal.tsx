import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { Tenant } from '../../../../domain/org-tenants';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useUpdateTenant } from '../api/org-tenants-api';
import { alertStyles } from '../utils/tenant-display';

type Props = { orgId: string; tenant: Tenant | null; onClose: () => void };

/**
 * Confirms blocking a tenant (with an optional reason kept for the team) or unblocking it. A
 * blocked tenant's portal requests are refused; its existing bookings stay as they are.
 */
export function BlockTenantModal({ orgId, tenant, onClose }: Props) {
  const update = useUpdateTenant(orgId);
  const [reason, setReason] = useState('');
  // The tenant as it was when the dialog opened: the texts do not flip while it saves and closes.
  const [target, setTarget] = useState<Tenant | null>(tenant);
  const isOpen = !!tenant;
  useEffect(() => {
    if (!tenant) return;
    setTarget(tenant);
    setReason('');
    update.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a fresh dialog each time it opens
  }, [tenant?.id, isOpen]);
  const isBlocking = target?.status === 'active';

  const confirm = () => {
    if (!target) return;
    update.mutate(
      { id: target.id, patch: isBlocking ? { status: 'blocked', blockedReason: reason } : { status: 'active' } },
      {
        onSuccess: (saved) => {
          toast.success(isBlocking ? 'Tenant blocked' : 'Tenant unblocked', isBlocking ? `${saved.name}'s portal requests are now refused.` : `${saved.name} can book again.`);
          onClose();
        },
      },
    );
  };

  return (
    <Modal opened={isOpen} onClose={onClose} title={isBlocking ? `Block ${target?.name ?? ''}` : `Unblock ${target?.name ?? ''}`}>
      <Stack gap="md">
        {isBlocking ? (
          <>
            <Text size="sm">
              Portal requests from this tenant will be refused with “Bookings for {target?.name} are not accepted at this organization. Contact the site.”
              Bookings already made are not changed.
            </Text>
            <Textarea label="Reason (for your team)" autosize minRows={2} value={reason} onChange={(event) => setReason(event.currentTarget.value)} />
          </>
        ) : (
          <Text size="sm">This tenant’s portal requests will be accepted again, under its booking policy.</Text>
        )}
        {update.isError ? (
          <Alert styles={alertStyles} color="red" role="alert" title="Not changed">
            {errorMessage(update.error, 'The tenant could not be changed')}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color={isBlocking ? 'red.8' : undefined} loading={update.isPending} onClick={confirm}>
            {isBlocking ? 'Block tenant' : 'Unblock tenant'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
