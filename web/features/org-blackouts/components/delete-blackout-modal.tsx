import { Alert, Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { BlackoutItem, BlackoutSeries } from '../../../../domain/org-blackouts';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useDeleteBlackout, useDeleteSeries } from '../api/blackouts-api';
import { formatBlackoutSpan } from '../utils/blackout-display';

// Deleting asks first. An occurrence of a series can go alone (the series keeps skipping that
// date) or with its whole series (its future occurrences; those already started stay as history).

export type DeleteTarget = { type: 'item'; item: BlackoutItem } | { type: 'series'; series: BlackoutSeries } | null;

export function DeleteBlackoutModal({ orgId, target, onClose }: { orgId: string; target: DeleteTarget; onClose: () => void }) {
  const [scope, setScope] = useState<'occurrence' | 'series'>('occurrence');
  const [error, setError] = useState<string | null>(null);
  const deleteOne = useDeleteBlackout(orgId);
  const deleteSeries = useDeleteSeries(orgId);
  const item = target?.type === 'item' ? target.item : null;
  const seriesId = target?.type === 'series' ? target.series.id : item?.series && scope === 'series' ? item.series.id : null;
  const summary = target?.type === 'series' ? target.series.summary : item?.series?.summary;

  const close = () => {
    setError(null);
    setScope('occurrence');
    onClose();
  };

  const confirm = async () => {
    setError(null);
    try {
      if (seriesId) {
        const result = await deleteSeries.mutateAsync(seriesId);
        const kept = result.keptOccurrences ? ` ${result.keptOccurrences} already started stay as history.` : '';
        toast.success('Recurring blackout deleted', `${result.deletedOccurrences} upcoming occurrence${result.deletedOccurrences === 1 ? '' : 's'} removed.${kept}`);
      } else if (item) {
        await deleteOne.mutateAsync(item.id);
        toast.success('Blackout deleted', `${item.bayName ?? 'Whole site'}, ${formatBlackoutSpan(item)}.`);
      }
      close();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'The blackout could not be deleted. Try again.');
    }
  };

  return (
    <Modal opened={target !== null} onClose={close} title={target?.type === 'series' ? 'Delete recurring blackout' : 'Delete blackout'} centered>
      <Stack gap="md">
        {target?.type === 'series' ? (
          <Text size="sm">
            Delete <strong>{target.series.summary}</strong> ({target.series.bayName ?? 'whole site'}, {target.series.siteName})? Its {target.series.upcomingCount} upcoming
            occurrence{target.series.upcomingCount === 1 ? '' : 's'} will be removed; those already started stay as history.
          </Text>
        ) : item ? (
          <>
            <Text size="sm">
              {item.bayName ?? 'Whole site'}, {item.siteName}: <strong>{formatBlackoutSpan(item)}</strong>
              {item.reason ? ` — ${item.reason}` : ''}
            </Text>
            {item.series ? (
              <Radio.Group label="What do you want to delete?" value={scope} onChange={(value) => setScope(value as 'occurrence' | 'series')}>
                <Stack gap={8} mt={6}>
                  <Radio value="occurrence" label="Only this occurrence" description="The series skips this date from now on." />
                  <Radio value="series" label="The whole series" description={`${summary}: every upcoming occurrence. Those already started stay as history.`} />
                </Stack>
              </Radio.Group>
            ) : null}
          </>
        ) : null}
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Keep it
          </Button>
          <Button color="red" loading={deleteOne.isPending || deleteSeries.isPending} onClick={() => void confirm()}>
            {seriesId ? 'Delete series' : 'Delete'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
