import { Box, Loader, Stack, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { arrivalQrText, formatArrivalCode } from '../../../../domain/arrival-code';
import { useT } from '../../../i18n/index';

// The booking's arrival code for the gate (issue 26): a QR code holding `BAYWISE-ARRIVAL:<code>`
// (never the manage link or its token) and the same code typed underneath, e.g. K7M2-9QXD. The
// QR encoder loads on first use, in its own chunk (decision 040).

const ArrivalQrImage = lazy(() => import('./arrival-qr-image'));

export function ArrivalQr({ code, size = 184 }: { code: string; size?: number }) {
  const typed = formatArrivalCode(code);
  const { t } = useT('portal');
  return (
    <Stack gap={6} align="center" component="figure" m={0} aria-label={t('manage.arrivalCode')}>
      <Box p={4} bg="white" style={{ borderRadius: 8, border: '1px solid var(--mantine-color-gray-4)' }}>
        <Suspense
          fallback={
            <Box w={size} h={size} style={{ display: 'grid', placeItems: 'center' }}>
              <Loader size="sm" aria-label={t('qr.loading')} />
            </Box>
          }
        >
          <ArrivalQrImage text={arrivalQrText(code)} size={size} label={t('qr.label', { code: typed })} />
        </Suspense>
      </Box>
      <Text component="figcaption" ta="center">
        <Text span size="xs" c="gray.7" display="block">
          {t('manage.arrivalCode')}
        </Text>
        <Text span ff="monospace" fw={700} fz={26} style={{ letterSpacing: '0.12em' }} data-testid="arrival-code">
          {typed}
        </Text>
      </Text>
    </Stack>
  );
}
