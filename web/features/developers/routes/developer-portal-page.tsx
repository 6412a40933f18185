import { Alert, Anchor, Box, Card, Code, Container, Group, List, Loader, Stack, Table, Text, Title, TypographyStylesProvider } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { marked } from 'marked';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { usePageTitle } from '../../../lib/use-page-title';

// /developers: the carriers' reference for the SSC appointment API, inside the product and public.
// Everything on it is read from the repository through the server, so it cannot drift from the
// code: the OpenAPI profile the routes' zod schemas generate (/api/ssc/openapi.json, shown by Swagger
// UI at /api/ssc/docs, served by us with its own CSP, linked), the operations listed from it, and /api/ssc/reference — the scopes, the
// default rate limit, the idempotency header, the problem kinds and event types of domain/, the
// signature section of docs/webhooks.md and docs/ssc-mapping.md. This route is lazy: the public
// booking pages do not load it (nor marked).

type Reference = {
  keyPrefix: string;
  scopes: { scope: string; label: string }[];
  defaultRateLimitPerMinute: number;
  idempotencyHeader: string;
  signingSecretHeader: string;
  eventTypes: string[];
  problemKinds: { kind: string; title: string; type: string }[];
  mappingMarkdown: string;
  signatureMarkdown: string;
};

async function fetchReference(): Promise<Reference> {
  const response = await fetch('/api/ssc/reference');
  if (!response.ok) throw new Error(`The reference could not be loaded (${response.status})`);
  return (await response.json()) as Reference;
}

/** Markdown from the repository's docs (served by our server, not user input), as HTML. */
function Markdown({ source, label }: { source: string; label: string }) {
  // A code block scrolls sideways: focusable, so a keyboard can scroll it.
  const html = useMemo(() => marked.parse(source, { async: false, gfm: true }).replaceAll('<pre>', '<pre tabindex="0">'), [source]);
  return (
    <TypographyStylesProvider>
      <Box aria-label={label} className="developer-markdown" dangerouslySetInnerHTML={{ __html: html }} style={{ overflowX: 'auto' }} />
    </TypographyStylesProvider>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" id={id} aria-labelledby={`${id}-title`}>
      <Title order={2} size="h3" mb="sm" id={`${id}-title`}>
        {title}
      </Title>
      {children}
    </Card>
  );
}

const STATUS_CODES: [string, string][] = [
  ['200 SUCCESS', 'The operation was done (RPC operations, get and update subscription).'],
  ['200 FAILURE', 'A well-formed request Baywise refuses: slot taken, out of hours, blackout, vehicle too tall… (problemDetails says why).'],
  ['201', 'subscribe: the subscription, with Location and its signing secret (once).'],
  ['204', 'delete-subscription.'],
  ['400', 'The body breaks the standard’s schema (every problem listed), is not JSON, or a subscriptionId is not the URL’s.'],
  ['401', 'No API key, or an unknown, revoked or expired one.'],
  ['403', 'The key lacks the operation’s scope.'],
  ['404', 'Nothing your tenant can see matches the identifiers.'],
  ['405', 'An RPC path called with another method than POST.'],
  ['422', 'A callback URL Baywise will not call (private address, not http(s)…), or the subscription limit.'],
  ['429', 'Your key’s rate limit; Retry-After says when to retry.'],
];

type OpenApi = { paths: Record<string, Record<string, { operationId: string; summary?: string; responses: Record<string, { description?: string }> }>> };

async function fetchOpenApi(): Promise<OpenApi> {
  const response = await fetch('/api/ssc/openapi.json');
  if (!response.ok) throw new Error(`The OpenAPI document could not be loaded (${response.status})`);
  return (await response.json()) as OpenApi;
}

/** The operations of /api/ssc/openapi.json with their status codes (schemas: Swagger UI). */
function Operations() {
  const document = useQuery({ queryKey: ['ssc-openapi'], queryFn: fetchOpenApi, staleTime: Infinity });
  if (document.isPending) return <Loader aria-label="Loading the operations" />;
  if (document.isError) return <Alert color="red">{document.error.message}</Alert>;
  const rows = Object.entries(document.data.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, operation })));
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table fz="sm" aria-label="Operations">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Operation</Table.Th>
            <Table.Th>Request</Table.Th>
            <Table.Th>Status codes</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(({ path, method, operation }) => (
            <Table.Tr key={`${method} ${path}`}>
              <Table.Td>
                <Anchor href={`/api/ssc/docs#/ssc/${operation.operationId}`}>{operation.operationId}</Anchor>
                {operation.summary && (
                  <Text size="xs" c="dimmed">
                    {operation.summary.replace(/^SSC: /, '')}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Code>
                  {method.toUpperCase()} /api/ssc{path}
                </Code>
              </Table.Td>
              <Table.Td>{Object.keys(operation.responses).join(', ')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** /developers */
export default function DeveloperPortalPage() {
  usePageTitle('Developers');
  const reference = useQuery({ queryKey: ['ssc-reference'], queryFn: fetchReference, staleTime: Infinity });

  return (
    <Container size="lg" py="xl" component="main">
      <Stack gap="lg">
        <div>
          <Anchor component={Link} to="/" size="sm">
            ← Baywise
          </Anchor>
          <Title order={1} mt="xs">
            Developer portal
          </Title>
          <Text c="dimmed" mt={4}>
            Book, move and cancel dock appointments from your TMS with the Scheduling Standards Consortium appointment API v1.1, and receive signed{' '}
            <Code>appointment-changed</Code> events.
          </Text>
          <Group gap="xs" mt="sm" component="nav" aria-label="On this page">
            {[
              ['#get-a-key', 'Get a key'],
              ['#limits', 'Rate limits & idempotency'],
              ['#errors', 'Status codes & errors'],
              ['#webhooks', 'Webhooks & signing'],
              ['#reference', 'API reference'],
              ['#mapping', 'Field mapping'],
            ].map(([href, label]) => (
              <Anchor key={href} href={href} size="sm">
                {label}
              </Anchor>
            ))}
          </Group>
        </div>

        {reference.isPending && <Loader aria-label="Loading the reference" />}
        {reference.isError && <Alert color="red">{reference.error.message}</Alert>}
        {reference.data && (
          <>
            <Section id="get-a-key" title="Get a key">
              <List spacing="xs" size="sm">
                <List.Item>
                  An org admin of the site’s operator makes the key under <b>Settings › Integrations › API keys</b>, for your company (a tenant), with the scopes you need. The secret
                  (<Code>{reference.data.keyPrefix}…</Code>) is shown once.
                </List.Item>
                <List.Item>
                  Send it on every call: <Code>Authorization: Bearer {reference.data.keyPrefix}…</Code>. The base URL is <Code>/api/ssc</Code> on the operator’s Baywise.
                </List.Item>
                <List.Item>
                  The same panel lists the location ids (<Code>identifiers.locationId</Code>) of the operator’s sites.
                </List.Item>
              </List>
              <Table mt="md" fz="sm" aria-label="Scopes">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Scope</Table.Th>
                    <Table.Th>Allows</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {reference.data.scopes.map((s) => (
                    <Table.Tr key={s.scope}>
                      <Table.Td>
                        <Code>{s.scope}</Code>
                      </Table.Td>
                      <Table.Td>{s.label}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Section>

            <Section id="limits" title="Rate limits and idempotency">
              <List spacing="xs" size="sm">
                <List.Item>
                  One counter per key across every SSC operation: {reference.data.defaultRateLimitPerMinute} calls a minute unless the operator set another limit on the key. Over it: 429
                  with <Code>Retry-After</Code>.
                </List.Item>
                <List.Item>
                  <Code>{reference.data.idempotencyHeader}: &lt;your id&gt;</Code> on schedule-appointment: a retry with the same key answers the booking the first call made, so a timeout can
                  be retried safely.
                </List.Item>
              </List>
            </Section>

            <Section id="errors" title="Status codes and error kinds">
              <Table fz="sm" aria-label="Status codes">
                <Table.Tbody>
                  {STATUS_CODES.map(([code, meaning]) => (
                    <Table.Tr key={code}>
                      <Table.Td w={130}>
                        <Code fw={600}>{code}</Code>
                      </Table.Td>
                      <Table.Td>{meaning}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Text size="sm" mt="md">
                Every refusal has the standard’s failure body <Code>{'{ "status": "FAILURE", "problemDetails": [ … ] }'}</Code>. Each problem’s <Code>type</Code> is the standard’s URI and
                its <Code>title</Code> the kind’s name — a documented deviation (decision 020): the standard’s own <Code>oneOf</Code> cannot validate a problem typed by its title.
              </Text>
              <Table mt="sm" fz="sm" aria-label="Error kinds">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>title</Table.Th>
                    <Table.Th>type</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {reference.data.problemKinds.map((k) => (
                    <Table.Tr key={k.kind}>
                      <Table.Td>
                        <Code>{k.title}</Code>
                      </Table.Td>
                      <Table.Td>
                        <Code>{k.type}</Code>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Section>

            <Section id="webhooks" title="Webhook events and signing">
              <Text size="sm">
                Subscribe a callback URL with <Code>POST /api/ssc/webhooks/v1/subscriptions</Code> to the events{' '}
                {reference.data.eventTypes.map((e, i) => (
                  <span key={e}>
                    {i > 0 && ', '}
                    <Code>{e}</Code>
                  </span>
                ))}
                . The 201 answer carries the subscription’s signing secret once, in the <Code>{reference.data.signingSecretHeader}</Code> header: keep it to check each delivery.
              </Text>
              <Box mt="md">
                <Markdown source={reference.data.signatureMarkdown} label="Signature" />
              </Box>
            </Section>

            <Section id="reference" title="API reference">
              <Text size="sm" mb="sm">
                Baywise’s profile of the standard, generated from the schemas the server itself uses: <Anchor href="/api/ssc/openapi.json">/api/ssc/openapi.json</Anchor> (generate a typed
                client from it, e.g. <Code>npx openapi-typescript …/api/ssc/openapi.json</Code>). Every request and answer schema is in the interactive reference, <Anchor href="/api/ssc/docs">Swagger UI at /api/ssc/docs</Anchor>.
              </Text>
              <Operations />
            </Section>

            <Section id="mapping" title="Field mapping">
              <Markdown source={reference.data.mappingMarkdown} label="Field mapping" />
            </Section>
          </>
        )}
      </Stack>
    </Container>
  );
}
