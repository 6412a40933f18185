import { Box, Button, Group, Text } from '@mantine/core';
import { IconUserShield } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useAuth } from '../../features/auth/hooks/use-auth';

/** The banner's height; the area shells make room for it above their header. */
export const IMPERSONATION_BANNER_HEIGHT = 44;

/** 'mm:ss' of what is left (never negative). */
function timeLeft(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/**
 * 'Acting as {email} — End' (decision 017): on every screen while a platform user acts as a
 * member, with the time left of the 30 minutes. End — or the end of the time — brings the
 * platform session back; the super-admin area then opens the organization's page.
 */
export function ImpersonationBanner() {
  const { impersonation, endImpersonation } = useAuth();
  const [now, setNow] = useState(() => Date.now());
  const [isEnding, setIsEnding] = useState(false);
  const hasExpired = useRef(false);
  const expiresAt = impersonation ? Date.parse(impersonation.expiresAt) : 0;

  useEffect(() => {
    if (!impersonation) return;
    hasExpired.current = false;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [impersonation]);

  useEffect(() => {
    if (!impersonation || hasExpired.current || now < expiresAt) return;
    hasExpired.current = true;
    void endImpersonation('expired');
  }, [impersonation, now, expiresAt, endImpersonation]);

  if (!impersonation) return null;

  const end = async () => {
    setIsEnding(true);
    await endImpersonation('ended');
  };

  return (
    <Box
      component="section"
      aria-label="Impersonation"
      h={IMPERSONATION_BANNER_HEIGHT}
      px="md"
      bg="yellow.3"
      style={{ borderBottom: '1px solid var(--mantine-color-yellow-6)', display: 'flex', alignItems: 'center' }}
      data-testid="impersonation-banner"
    >
      <Group gap="sm" justify="center" wrap="nowrap" w="100%">
        <IconUserShield size={18} aria-hidden color="var(--mantine-color-dark-7)" />
        <Text size="sm" fw={600} c="dark.8" style={{ whiteSpace: 'nowrap' }}>
          Acting as {impersonation.email} —{' '}
          <Button size="compact-sm" color="dark.7" variant="filled" onClick={end} loading={isEnding}>
            End
          </Button>
        </Text>
        <Text size="sm" c="dark.8" visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
          {impersonation.orgName} · <span data-testid="impersonation-time-left">{timeLeft(expiresAt - now)}</span> left
        </Text>
      </Group>
    </Box>
  );
}
