import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconBan, IconEye, IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { IMPERSONATION_MAX_MINUTES, IMPERSONATOR_ROLES } from '../../../../domain/auth-schemas';
import { planLabel } from '../../../../domain/platform-admin';
import { paths } from '../../../app/paths';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAuth } from '../../auth/hooks/use-auth';
import { useOrganization } from '../api/get-organization';
import { formatDay, formatDayTime } from '../components/format';
import { OrganizationAuditTrail } from '../components/organization-audit-trail';
import { OrganizationBilling } from '../components/organization-billing';
import { OrganizationMembers } from '../components/organization-members';
import { OrganizationSites } from '../components/organization-sites';
import { OrganizationStatusBadge } from '../components/organization-status-badge';
import { OrganizationStatusModal } from '../components/organization-status-modal';
import { OrganizationUsage } from '../components/organization-usage';

// /superadmin/organizations/:orgId: one organization — its status (suspend, reactivate: the
// buttons the server's `actions` offer), usage, members, sites and bays, plan and invoices, and
// its audit trail. Platform staff read an organization's data and change it only by acting as one
// of its members (decision 029): the note says so, and "Act as" is the way in.

const alertStyles = { title: { color: 'var(--mantine-color-text)' } };

export default function OrganizationPage() {
  const { orgId } = useParams();
  const organization = useOrganization(orgId);
  usePageTitle(organization.data?.name ?? 'Organization');
  const [dialog, setDialog] = useState<'suspend' | 'reactivate' | null>(null);

  const back = (
    <Anchor component={Link} to={paths.superadmin.organizations} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        All organizations
      </Group>
    </Anchor>
  );

  if (organization.isPending) {
    return (
      <Stack gap="md">
        {back}
        <Group justify="center" py="xl">
          <Loader aria-label="Loading organization" />
        </Group>
      </Stack>
    );
  }
  if (organization.isError || !organization.data) {
    const isMissing = organization.error instanceof ApiError && organization.error.status === 404;
    return (
      <Stack gap="md">
        {back}
        <Title order={1} size="h2">
          Organization
        </Title>
        <Alert styles={alertStyles} color={isMissing ? 'gray' : 'red'} role="alert" title={isMissing ? 'Organization not found' : 'Error loading organization'}>
          {isMissing ? 'There is no organization at this address.' : errorMessage(organization.error, 'Failed to fetch organizations')}
        </Alert>
      </Stack>
    );
  }

  const org = organization.data;
  return (
    <Stack gap="lg">
      {back}
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div>
          <Group gap="sm" wrap="wrap">
            <Title order={1} size="h2">
              {org.name}
            </Title>
            <OrganizationStatusBadge status={org.status} size="lg" />
          </Group>
          <Text c="dimmed" size="sm" mt={4}>
            {planLabel(org.plan)} · created {formatDay(org.createdAt)} · {org.slug}
            {org.contactEmail ? ` · ${org.contactEmail}` : ''}
            {org.contactPhone ? ` · ${org.contactPhone}` : ''}
          </Text>
        </div>
        <Group gap="sm">
          {org.actions.canSuspend ? (
            <Button color="red.8" leftSection={<IconBan size={16} aria-hidden />} onClick={() => setDialog('suspend')}>
              Suspend organization
            </Button>
          ) : null}
          {org.actions.canReactivate ? (
            <Button leftSection={<IconPlayerPlay size={16} aria-hidden />} onClick={() => setDialog('reactivate')}>
              Reactivate organization
            </Button>
          ) : null}
        </Group>
      </Group>

      {org.suspension ? (
        <Alert
          styles={alertStyles}
          color="yellow"
          variant="light"
          icon={<IconAlertTriangle size={18} aria-hidden />}
          title={`Suspended since ${formatDayTime(org.suspension.at)}${org.suspension.byEmail ? ` by ${org.suspension.byEmail}` : ''}`}
          data-testid="suspension"
        >
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            Reason: {org.suspension.reason}
          </Text>
          <Text size="sm" mt={4}>
            Its members cannot sign in and its booking portal refuses new requests.
          </Text>
        </Alert>
      ) : null}

      <ReadOnlyNote />

      <OrganizationUsage organization={org} />
      <OrganizationMembers members={org.members} />
      <OrganizationSites sites={org.sites} />
      <OrganizationBilling plan={org.plan} invoices={org.invoices} />
      <OrganizationAuditTrail orgId={org.id} />

      {!org.actions.canSuspend && !org.actions.canReactivate ? (
        <Paper withBorder radius="md" p="sm">
          <Text size="sm" c="dimmed">
            Your platform role can view organizations but not suspend or reactivate them.
          </Text>
        </Paper>
      ) : null}

      <OrganizationStatusModal organization={org} kind={dialog} onClose={() => setDialog(null)} />
    </Stack>
  );
}

/** Platform staff change an organization's data only by acting as one of its members (decision 029). */
function ReadOnlyNote() {
  const { user } = useAuth();
  const canImpersonate = (IMPERSONATOR_ROLES as readonly string[]).includes(user?.platformRole ?? '');
  return (
    <Alert
      styles={alertStyles}
      color="blue"
      variant="light"
      icon={<IconEye size={18} aria-hidden />}
      title="Read-only for platform staff"
      data-testid="platform-read-only"
    >
      <Text size="sm">
        {canImpersonate
          ? `You can view this organization's data but not change it. To make changes, act as one of its members (Members › Act as): you give a reason, it ends after ${IMPERSONATION_MAX_MINUTES} minutes at most, and every change records both of you.`
          : "Your platform role can view this organization's data but not change it."}
      </Text>
    </Alert>
  );
}
