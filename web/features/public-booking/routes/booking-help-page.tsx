import { Anchor, Button, Card, Container, List, Stack, Text, Timeline, Title } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import {
  BOOKING_WINDOW_MIN,
  MAX_DURATION_MIN,
  MAX_FILES,
  MIN_DURATION_MIN,
  REVIEW_PROMISE_HOURS,
} from '../../../../domain/constants';
import { BookingRequirements, minAdvanceText } from '../components/booking-requirements';
import { HelpContacts } from '../components/help-contacts';
import { PageHeader } from '../components/page-header';
import { usePageTitle } from '../../../lib/use-page-title';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section">
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** /book/help: how booking works, what to bring, arriving and checking in. */
export default function BookingHelpPage() {
  usePageTitle('Booking Help');
  return (
    <Container size="md" py="xl">
      <PageHeader
        title="Booking help"
        description="Everything you need to request a dock slot and arrive ready to unload or load."
        backTo="/book"
        backLabel="Back to booking"
      />
      <Stack gap="lg">
        <Section title="How booking works">
          <Timeline active={4} bulletSize={22} lineWidth={2}>
            <Timeline.Item title="Fill in the request">
              <Text size="sm">
                Enter your TSR (transport scheduling reference), company and contact details, your vehicle and what you are
                delivering or collecting. Bookings must be made at least {minAdvanceText()} in advance.
              </Text>
            </Timeline.Item>
            <Timeline.Item title="Pick a date and time">
              <Text size="sm">
                The time-slot grid only offers times when a bay that fits your vehicle (height, length and any special access
                needs) is free for your whole expected duration, {MIN_DURATION_MIN} to {MAX_DURATION_MIN} minutes. Each slot shows how
                many bays are free.
              </Text>
            </Timeline.Item>
            <Timeline.Item title="Submit">
              <Text size="sm">
                We assign the best-fitting bay and send you a confirmation e-mail with a calendar file and a private link to
                manage your booking.
              </Text>
            </Timeline.Item>
            <Timeline.Item title="Review">
              <Text size="sm">
                The operations team reviews every request within {REVIEW_PROMISE_HOURS} hours during business hours. You receive an
                e-mail when it is approved or declined.
              </Text>
            </Timeline.Item>
          </Timeline>
        </Section>

        <Section title="What you need">
          <BookingRequirements />
          <Text size="sm" mt="sm">
            You can attach up to {MAX_FILES} documents (PDF, DOC, DOCX, JPG, JPEG or PNG, max 10MB each) to the request, such as
            the consignment note, dangerous goods declaration or the driver's induction certificate.
          </Text>
        </Section>

        <Section title="What to bring on the day">
          <List size="sm" spacing={6}>
            <List.Item>Your booking reference or TSR number, and the confirmation e-mail on your phone.</List.Item>
            <List.Item>The driver's site induction certificate and photo ID.</List.Item>
            <List.Item>Consignment documentation for every load, and dangerous goods paperwork where it applies.</List.Item>
            <List.Item>Personal protective equipment: high-visibility clothing and safety footwear as a minimum.</List.Item>
            <List.Item>The vehicle registered on the booking: plates are checked at the gate.</List.Item>
          </List>
        </Section>

        <Section title="Arrival and check-in">
          <List size="sm" spacing={6}>
            <List.Item>Report to the gate no earlier than 15 minutes before your booked time.</List.Item>
            <List.Item>
              Your booking window is {BOOKING_WINDOW_MIN} minutes from the booked time. A vehicle that has not arrived by then may be
              recorded as a no-show and lose the bay.
            </List.Item>
            <List.Item>The dockmaster checks you in, confirms the bay and directs you to it.</List.Item>
            <List.Item>
              Leave the bay by the end of your booked duration: vehicles that overstay hold up the next booking and are followed up by
              site staff.
            </List.Item>
          </List>
        </Section>

        <Section title="Changing or cancelling">
          <Text size="sm">
            Use the private link in your confirmation e-mail to see the status of your booking, move it to another free slot or
            cancel it. See the{' '}
            <Anchor component={Link} to="/book/terms" size="sm">
              booking terms
            </Anchor>{' '}
            for the details.
          </Text>
        </Section>

        <Section title="Contacts">
          <HelpContacts />
        </Section>

        <Button component={Link} to="/book/request" leftSection={<IconCalendarPlus size={18} aria-hidden />} size="md" style={{ alignSelf: 'flex-start' }}>
          Book a Dock Slot
        </Button>
      </Stack>
    </Container>
  );
}
