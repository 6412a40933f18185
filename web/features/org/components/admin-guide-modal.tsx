import { List, Modal, Stack, Text, Title } from '@mantine/core';

const sections: { title: string; items: string[] }[] = [
  {
    title: 'Getting started',
    items: [
      'Sign in with your organization chosen; you land on the organization dashboard.',
      'Use the organization and site selectors at the top of every screen. With one organization or one site it is chosen for you, and your last choice is remembered on this device.',
    ],
  },
  {
    title: 'Bookings',
    items: [
      'Requests from the public booking portal arrive as pending. Approve or decline them from Bookings; the haulier is e-mailed either way.',
      'A booking is only offered for a bay whose clearance fits the vehicle and that is free for the whole expected duration.',
    ],
  },
  {
    title: 'Bays and blackouts',
    items: [
      'Bays carry their height clearance, length and features (refrigerated, hazardous, oversize, escort).',
      'A blackout closes one bay or a whole site for a period; no slot is offered inside it.',
    ],
  },
  {
    title: 'Operations',
    items: [
      'Live Operations shows arrivals, check-ins and bay status as they happen.',
      'The Plate Scanner reads a number plate from the camera or typed input and matches it to an expected vehicle.',
    ],
  },
  {
    title: 'Team and settings',
    items: [
      'Settings hold the organization details, each site’s operating hours and time zone, and team members with their roles (org admin, dockmaster, security).',
      'Reports give bay utilisation, on-time arrival, dwell and turn time, and no-shows, as charts and CSV.',
    ],
  },
];

/** The admin guide behind the org admin login's guide button. */
export function AdminGuideModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Organization admin guide" size="lg" centered>
      <Stack gap="md">
        <Text size="sm">A short tour of what an organization administrator does in Baywise.</Text>
        {sections.map((section) => (
          <div key={section.title}>
            <Title order={3} size="h5" mb={4}>
              {section.title}
            </Title>
            <List size="sm" spacing={4}>
              {section.items.map((item) => (
                <List.Item key={item}>{item}</List.Item>
              ))}
            </List>
          </div>
        ))}
      </Stack>
    </Modal>
  );
}
