import { Card, Container, List, Stack, Text, Title } from '@mantine/core';
import { BOOKING_WINDOW_MIN, OVERSTAY_THRESHOLD_MIN, REVIEW_PROMISE_HOURS } from '../../../../domain/constants';
import { minAdvanceText } from '../components/booking-requirements';
import { HelpContacts } from '../components/help-contacts';
import { PageHeader } from '../components/page-header';
import { usePageTitle } from '../../../lib/use-page-title';

function Term({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <section>
      <Title order={2} size="h5" mb={6}>
        {n}. {title}
      </Title>
      {children}
    </section>
  );
}

/** /book/terms: the conditions a haulier accepts with a booking request. */
export default function BookingTermsPage() {
  usePageTitle('Booking Terms');
  return (
    <Container size="md" py="xl">
      <PageHeader title="Booking terms and conditions" backTo="/book/request" backLabel="Back to booking request" />
      <Card withBorder radius="md" padding="lg">
        <Stack gap="lg">
          <Text size="sm">
            These terms apply to every dock slot requested through this portal. By ticking "I accept the terms and conditions" on
            the booking request you agree to them on behalf of your company and driver.
          </Text>

          <Term n={1} title="Booking requests">
            <List size="sm" spacing={4}>
              <List.Item>A request must be made at least {minAdvanceText()} before the slot starts.</List.Item>
              <List.Item>
                A request is pending until the operations team reviews it, within {REVIEW_PROMISE_HOURS} hours during business hours. A
                bay is held for you while it is pending, but only an approved booking entitles you to unload or load.
              </List.Item>
              <List.Item>The site may decline a request, for example for missing documentation or safety reasons.</List.Item>
            </List>
          </Term>

          <Term n={2} title="Accurate information">
            <List size="sm" spacing={4}>
              <List.Item>
                Vehicle type, registration, height and length must be correct: bays are assigned by clearance. A vehicle taller than
                declared may be refused entry.
              </List.Item>
              <List.Item>Hazardous, refrigerated, oversize and escorted loads must be declared as special access needs.</List.Item>
              <List.Item>The TSR number must be a valid reference in the named scheduling system.</List.Item>
            </List>
          </Term>

          <Term n={3} title="Driver induction and safety">
            <List size="sm" spacing={4}>
              <List.Item>The driver must have completed the site induction and carry the certificate.</List.Item>
              <List.Item>Site speed limits, PPE rules and staff directions must be followed at all times.</List.Item>
            </List>
          </Term>

          <Term n={4} title="Arrival, no-shows and overstays">
            <List size="sm" spacing={4}>
              <List.Item>
                The booking window is {BOOKING_WINDOW_MIN} minutes from the booked time. A vehicle that has not arrived by the end of the
                window is recorded as a no-show and the bay is released.
              </List.Item>
              <List.Item>
                A vehicle still at the bay {OVERSTAY_THRESHOLD_MIN} minutes after the end of its booking is in overstay and may be asked
                to leave the bay.
              </List.Item>
            </List>
          </Term>

          <Term n={5} title="Cancellation and rescheduling">
            <List size="sm" spacing={4}>
              <List.Item>
                Your confirmation e-mail contains a private link. With it you can cancel your booking, or move it to another free slot,
                as long as it has not started: once the vehicle has checked in, or the booking has been declined, cancelled or
                completed, it can no longer be changed online.
              </List.Item>
              <List.Item>
                A moved booking must meet the same rules as a new one: a compatible free bay for the whole duration, within operating
                hours, at least {minAdvanceText()} ahead. A moved booking goes back to pending and is reviewed again.
              </List.Item>
              <List.Item>Please cancel as early as possible so the bay can be offered to another haulier.</List.Item>
              <List.Item>Keep the link private: anyone who has it can change the booking.</List.Item>
            </List>
          </Term>

          <Term n={6} title="Documents and personal information">
            <Text size="sm">
              Documents and contact details you send are used only to plan and run your delivery or pickup, are visible to the site
              operator, and are kept for as long as the site's record-keeping requires.
            </Text>
          </Term>

          <Term n={7} title="Contacts">
            <HelpContacts />
          </Term>
        </Stack>
      </Card>
    </Container>
  );
}
