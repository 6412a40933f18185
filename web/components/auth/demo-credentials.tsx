import { Anchor, Code, Paper, Stack, Table, Text } from '@mantine/core';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../../domain/constants';

type DemoAccount = (typeof DEMO_ACCOUNTS)[number];

type DemoCredentialsProps = {
  /** Which demo accounts fit this screen (all by default). */
  accounts?: readonly DemoAccount[];
  /** Fill the form with this account. */
  onPick?: (account: DemoAccount) => void;
  showEmployeeId?: boolean;
};

/** Demo-credential hints of the sign-in screens: the seeded accounts and their shared password. */
export function DemoCredentials({ accounts = DEMO_ACCOUNTS, onPick, showEmployeeId = false }: DemoCredentialsProps) {
  return (
    <Paper withBorder radius="md" p="md" bg="indigo.0">
      <Stack gap="xs">
        <Text fw={700} size="sm" component="h2">
          Demo credentials
        </Text>
        <Text size="sm">
          Password for every demo account: <Code style={{ whiteSpace: 'nowrap' }}>{DEMO_PASSWORD}</Code>
        </Text>
        <Table verticalSpacing={4} horizontalSpacing="xs" fz="sm" withRowBorders={false}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Account</Table.Th>
              <Table.Th>{showEmployeeId ? 'Employee ID' : 'Role'}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {accounts.map((account) => (
              <Table.Tr key={account.email}>
                <Table.Td>
                  {onPick ? (
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      onClick={() => onPick(account)}
                      aria-label={`Use demo account ${account.email}`}
                    >
                      {account.email}
                    </Anchor>
                  ) : (
                    account.email
                  )}
                </Table.Td>
                <Table.Td>{showEmployeeId ? ('employeeId' in account ? account.employeeId : '—') : account.label}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}
