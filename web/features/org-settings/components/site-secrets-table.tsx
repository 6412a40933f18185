import { Alert, Badge, Button, Code, Group, Loader, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { CameraToken } from '../../../../domain/org-settings';
import { errorMessage } from '../../../lib/api-client';

// The list shared by the settings cards of per-site secrets (ANPR camera tokens, gate kiosks): the
// same columns, states and revoke action; each card brings its own words.

/** One per-site secret as the settings API lists it (camera tokens and kiosks have the same shape). */
export type SiteSecret = CameraToken;

export type SiteSecretsWords = {
  /** "camera tokens", "kiosks": in the loading and error texts. */
  plural: string;
  /** The table's accessible name. */
  tableLabel: string;
  /** The secret column's heading ("Token", "Secret"). */
  secretColumn: string;
  /** Shown when the organization has none at all. */
  empty: string;
  /** Shown when all are revoked and revoked ones are hidden. */
  noneActive: string;
};

const when = (iso: string | null) => (iso ? new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)) : null);

/** Site first, newest first within a site; revoked ones only when asked for. */
export function visibleSecrets<T extends SiteSecret>(all: T[], showRevoked: boolean): T[] {
  return all.filter((s) => showRevoked || !s.revokedAt).sort((a, b) => a.siteName.localeCompare(b.siteName) || b.createdAt.localeCompare(a.createdAt));
}

export function SiteSecretsTable<T extends SiteSecret>({
  query,
  showRevoked,
  words,
  onRevoke,
}: {
  query: UseQueryResult<T[]>;
  showRevoked: boolean;
  words: SiteSecretsWords;
  onRevoke: (secret: T) => void;
}) {
  const all = query.data ?? [];
  const shown = visibleSecrets(all, showRevoked);
  let body: ReactNode;
  if (query.isLoading) {
    body = (
      <Group justify="center" py="lg">
        <Loader aria-label={`Loading ${words.plural}`} />
      </Group>
    );
  } else if (query.isError) {
    body = (
      <Alert color="red" title={`Could not load the ${words.plural}`}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(query.error, 'Try again in a moment.')}</Text>
          <Button size="xs" variant="default" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  } else if (shown.length === 0) {
    body = (
      <Text c="dimmed" ta="center" py="lg" size="sm">
        {all.length === 0 ? words.empty : words.noneActive}
      </Text>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="xs" fz="sm" aria-label={words.tableLabel} highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Site</Table.Th>
              <Table.Th>{words.secretColumn}</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td fw={500}>{s.name}</Table.Td>
                <Table.Td>{s.siteName}</Table.Td>
                <Table.Td>
                  <Code>…{s.hint}</Code>
                </Table.Td>
                <Table.Td>
                  {when(s.createdAt)}
                  {s.createdByEmail ? (
                    <Text size="xs" c="dimmed">
                      by {s.createdByEmail}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{when(s.lastUsedAt) ?? <Text span size="sm" c="dimmed">Never</Text>}</Table.Td>
                <Table.Td>
                  {s.revokedAt ? (
                    <Tooltip label={`Revoked ${when(s.revokedAt)}`}>
                      <Badge color="gray" variant="dot">
                        Revoked
                      </Badge>
                    </Tooltip>
                  ) : (
                    <Badge color="green" variant="dot">
                      Active
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  {s.revokedAt ? null : (
                    <Button size="xs" variant="outline" color="red.9" onClick={() => onRevoke(s)} aria-label={`Revoke ${s.name} (${s.siteName})`}>
                      Revoke
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }
  return <>{body}</>;
}
