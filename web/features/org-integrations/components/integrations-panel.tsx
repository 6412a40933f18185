import { ActionIcon, Anchor, Code, CopyButton, Group, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { ApiKeysSection } from './api-keys-section';
import { SscSubscriptionsSection } from './ssc-subscriptions-section';
import { TsrConnectionsSection } from './tsr-connections-section';
import { WebhooksSection } from './webhooks-section';

// Settings › Integrations (org admins): the API keys of the SSC appointment API and the location
// ids carriers send, the carriers' SSC webhook subscriptions, the signed outbound webhooks and the
// TSR link (each sender with its delivery log).

function LocationsCard({ sites }: { sites: { id: string; name: string; active: boolean }[] }) {
  const live = sites.filter((s) => s.active);
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="ssc-locations-title">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="ssc-locations-title">
            Locations for the appointment API
          </Title>
          <Text size="sm" c="dimmed">
            Carriers name a site by its location id (<Code>identifiers.locationId</Code>). Endpoints are served under <Code>/api/ssc/appointments/v1/</Code>;{' '}
            <Anchor component={Link} to="/developers">
              developer portal
            </Anchor>{' '}
            (how to call it, webhooks and signing, the OpenAPI reference; share it with your carriers).
          </Text>
        </div>
        {live.length === 0 ? (
          <Text size="sm" c="dimmed">
            No active sites yet.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table fz="sm" verticalSpacing={6} aria-label="Location ids">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Site</Table.Th>
                  <Table.Th>Location id</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {live.map((site) => (
                  <Table.Tr key={site.id}>
                    <Table.Td>{site.name}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Code>{site.id}</Code>
                        <CopyButton value={site.id} timeout={2000}>
                          {({ copied, copy }) => (
                            <Tooltip label={copied ? 'Copied' : 'Copy location id'} withArrow>
                              <ActionIcon size="sm" variant="subtle" onClick={copy} aria-label={copied ? 'Copied' : `Copy the location id of ${site.name}`}>
                                {copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
                              </ActionIcon>
                            </Tooltip>
                          )}
                        </CopyButton>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}

export function IntegrationsPanel() {
  const { selectedOrg, sites } = useOrgSelection();
  if (!selectedOrg) return null;
  return (
    <Stack gap="md">
      <ApiKeysSection orgId={selectedOrg.id} sites={sites.filter((s) => s.active)} />
      <LocationsCard sites={sites} />
      <SscSubscriptionsSection />
      <WebhooksSection />
      <TsrConnectionsSection />
    </Stack>
  );
}
