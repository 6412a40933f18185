import { Alert, Button, Code, FileInput, Group, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { TENANT_CSV_COLUMNS, TENANT_IMPORT_MAX_ROWS, type TenantImportError } from '../../../../domain/org-tenants';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useImportTenants } from '../api/org-tenants-api';
import { alertStyles } from '../utils/tenant-display';

/** The row problems of an import_invalid answer. */
function importErrorsOf(error: unknown): TenantImportError[] | null {
  if (!(error instanceof ApiError) || error.code !== 'import_invalid') return null;
  const errors = (error.details as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? (errors as TenantImportError[]) : null;
}

/** Import tenants from a CSV file, all or nothing; a refused file's problems are listed line by line. */
export function ImportTenantsModal({ orgId, opened, onClose }: { orgId: string; opened: boolean; onClose: () => void }) {
  const importFile = useImportTenants(orgId);
  const [file, setFile] = useState<File | null>(null);
  useEffect(() => {
    if (opened) {
      setFile(null);
      importFile.reset();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a fresh dialog each time
  }, [opened]);

  const rowErrors = importErrorsOf(importFile.error);
  const submit = () => {
    if (!file) return;
    importFile.mutate(file, {
      onSuccess: (result) => toast.success('Tenants imported', `${result.imported} tenant${result.imported === 1 ? '' : 's'} added.`),
    });
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Import tenants from CSV" size="xl">
      <Stack gap="md">
        <Text size="sm">
          The first line names the columns (any order; only <Code>name</Code> is required). Separate several e-mails or domains in a cell
          with <Code>;</Code>. Up to {TENANT_IMPORT_MAX_ROWS} tenants per file. Nothing is imported unless every row is valid.
        </Text>
        <Code block aria-label="Example file" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {`${TENANT_CSV_COLUMNS.join(',')}\nCoastal Freight,ops@coastal.example,+61 2 9555 1201,coastal.example,active,yes,6\nMetro Haulage,ops@metro.example;desk@metro.example,,,active,no,`}
        </Code>
        <FileInput
          label="CSV file"
          placeholder="Choose a .csv file"
          accept=".csv,text/csv"
          leftSection={<IconFileTypeCsv size={18} aria-hidden />}
          value={file}
          onChange={(next) => {
            setFile(next);
            importFile.reset();
          }}
          clearable
          clearButtonProps={{ 'aria-label': 'Remove the file' }}
        />

        <div aria-live="polite">
          {importFile.isSuccess ? (
            <Alert styles={alertStyles} color="green" title="Imported" role="status">
              {importFile.data.imported} tenant{importFile.data.imported === 1 ? '' : 's'} added.
            </Alert>
          ) : rowErrors ? (
            <Alert styles={alertStyles} color="red" title={importFile.error!.message} role="alert">
              <ScrollArea.Autosize mah={260}>
                <Table aria-label="Import problems" withRowBorders verticalSpacing={4} fz="sm">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th w={60}>Line</Table.Th>
                      <Table.Th w={170}>Column</Table.Th>
                      <Table.Th>Problem</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rowErrors.map((e, i) => (
                      <Table.Tr key={`${e.row}-${e.column}-${i}`}>
                        <Table.Td>{e.row}</Table.Td>
                        <Table.Td>{e.column ?? '—'}</Table.Td>
                        <Table.Td>{e.message}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea.Autosize>
            </Alert>
          ) : importFile.isError ? (
            <Alert styles={alertStyles} color="red" title="Not imported" role="alert">
              {errorMessage(importFile.error, 'The file could not be imported')}
            </Alert>
          ) : null}
        </div>

        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {importFile.isSuccess ? 'Done' : 'Cancel'}
          </Button>
          {importFile.isSuccess ? null : (
            <Button onClick={submit} disabled={!file} loading={importFile.isPending}>
              Import
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
