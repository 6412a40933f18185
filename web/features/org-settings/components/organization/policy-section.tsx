import { Anchor, Button, Group, NumberInput, Paper, Radio, Stack, Switch, TagsInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLicense } from '@tabler/icons-react';
import { Link } from 'react-router';
import { MAX_CUSTOM_RECIPIENTS, policyFormSchema, type OrgSettings, type PolicyFormInput } from '../../../../../domain/org-settings';
import { errorMessage } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { useOrgSelection } from '../../../org/hooks/use-org-selection';
import { useOrgSettings, useUpdateSettings } from '../../api/settings-api';
import { settingsLoadState } from './settings-load-state';
import { applyApiErrorsWithLists, validateWithLists } from './settings-form-errors';
import { RemindersCard } from './reminders-card';
import { PortalLanguageCard } from './portal-language-card';

// Settings › Booking policy and notifications: whether portal requests are approved at once, how
// late a haulier may cancel or move through their link, and who is told of a new request.

type PolicyValues = {
  booking: { autoApprove: boolean; cancellationCutoffHours: number | string; siteChoice: 'best_fit' | 'haulier' };
  notifications: { newRequestRecipients: 'org_admins' | 'custom'; newRequestEmails: string[] };
};

const EMAILS = 'notifications.newRequestEmails';
const validate = validateWithLists(policyFormSchema, [EMAILS]);

const toValues = (s: OrgSettings): PolicyValues => ({
  booking: { autoApprove: s.booking.autoApprove, cancellationCutoffHours: s.booking.cancellationCutoffHours, siteChoice: s.booking.hauliersChooseSite ? 'haulier' : 'best_fit' },
  notifications: { ...s.notifications },
});

/** The form's answers as the shared schema's input ('' for an emptied number stays visible as an error). */
const toInput = (v: PolicyValues): PolicyFormInput => ({
  booking: {
    autoApprove: v.booking.autoApprove,
    cancellationCutoffHours: v.booking.cancellationCutoffHours === '' ? Number.NaN : Number(v.booking.cancellationCutoffHours),
    hauliersChooseSite: v.booking.siteChoice === 'haulier',
  },
  notifications: v.notifications,
});

function PolicyForm({ orgId, settings }: { orgId: string; settings: OrgSettings }) {
  const form = useForm<PolicyValues>({ mode: 'controlled', initialValues: toValues(settings), validate: (values) => validate(toInput(values)) });
  const save = useUpdateSettings(orgId);
  const isCustom = form.values.notifications.newRequestRecipients === 'custom';

  const submit = (values: PolicyValues) => {
    const input = policyFormSchema.parse(toInput(values));
    save.mutate(input, {
      onSuccess: (view) => {
        const next = toValues(view.settings);
        form.setValues(next);
        form.resetDirty(next);
        toast.success('Settings saved', 'The booking policy and notifications are up to date.');
      },
      onError: (error) => {
        applyApiErrorsWithLists(error, form.setFieldError, [EMAILS]);
        toast.error('Settings not saved', errorMessage(error, 'The settings could not be saved.'));
      },
    });
  };

  return (
    <form noValidate onSubmit={form.onSubmit(submit)}>
      <Stack gap="lg">
        <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="policy-booking-title">
          <Stack gap="md">
            <Title order={2} size="h4" id="policy-booking-title">
              Booking policy
            </Title>
            <Switch
              label="Approve portal requests automatically"
              description="New requests from the booking portal are approved at once instead of waiting for review. A tenant’s own policy can also approve their requests."
              {...form.getInputProps('booking.autoApprove', { type: 'checkbox' })}
            />
            <NumberInput
              label="Cancellation cutoff (hours)"
              description="Hauliers cannot cancel or move a booking through their link later than this before its start. 0 allows changes until the start."
              min={0}
              max={168}
              step={1}
              allowDecimal={false}
              clampBehavior="none"
              styles={{ wrapper: { maxWidth: 260 } }}
              {...form.getInputProps('booking.cancellationCutoffHours')}
            />
            <Radio.Group
              label="Site of a portal request"
              description="Whether a haulier may pick the site in the booking portal, or gets the best-fit bay over all your sites."
              {...form.getInputProps('booking.siteChoice')}
            >
              <Stack gap="xs" mt="xs">
                <Radio value="best_fit" label="Best fit over all sites" />
                <Radio value="haulier" label="Hauliers may choose the site" />
              </Stack>
            </Radio.Group>
          </Stack>
        </Paper>

        <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="policy-notify-title">
          <Stack gap="md">
            <Title order={2} size="h4" id="policy-notify-title">
              Notifications
            </Title>
            <Radio.Group
              label="Who receives the e-mail about a new booking request"
              {...form.getInputProps('notifications.newRequestRecipients')}
              onChange={(value) => {
                form.setFieldValue('notifications.newRequestRecipients', value as PolicyValues['notifications']['newRequestRecipients']);
                form.clearFieldError(EMAILS);
              }}
            >
              <Stack gap="xs" mt="xs">
                <Radio value="org_admins" label="All organization admins" />
                <Radio value="custom" label="These addresses" />
              </Stack>
            </Radio.Group>
            {isCustom ? (
              <TagsInput
                label="Recipients"
                description={`Press Enter or comma after each address (at most ${MAX_CUSTOM_RECIPIENTS}).`}
                placeholder="bookings@example.com"
                maxTags={MAX_CUSTOM_RECIPIENTS}
                splitChars={[',', ' ', ';']}
                clearable
                acceptValueOnBlur
                {...form.getInputProps(EMAILS)}
              />
            ) : null}
          </Stack>
        </Paper>

        <Group justify="space-between" wrap="wrap">
          <Anchor component={Link} to="/org/settings/number-plates" size="sm">
            <Group gap={6} component="span">
              <IconLicense size={16} aria-hidden />
              Number-plate recognition and camera tokens
            </Group>
          </Anchor>
          <Group gap="sm">
            <Button variant="default" disabled={!form.isDirty() || save.isPending} onClick={() => form.reset()}>
              Discard changes
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
              Save settings
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

export function PolicySection() {
  const { selectedOrg } = useOrgSelection();
  const settings = useOrgSettings(selectedOrg?.id);
  const pending = settingsLoadState(!!selectedOrg, settings, 'the booking policy');
  if (pending || !selectedOrg || !settings.data) return pending;
  return (
    <Stack gap="lg">
      <PolicyForm key={selectedOrg.id} orgId={selectedOrg.id} settings={settings.data.settings} />
      <RemindersCard key={`reminders-${selectedOrg.id}`} orgId={selectedOrg.id} settings={settings.data.settings.reminders} />
      <PortalLanguageCard key={`portal-language-${selectedOrg.id}`} orgId={selectedOrg.id} settings={settings.data.settings.portal} />
    </Stack>
  );
}
