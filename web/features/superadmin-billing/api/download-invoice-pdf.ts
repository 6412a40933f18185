import { useMutation } from '@tanstack/react-query';
import { fetchApiFile, saveFile, serverFileName } from '../../../lib/api-client';

/**
 * GET /api/platform/invoices/{invoiceId}/pdf — fetched with the session's token (a plain link could
 * not carry it), then saved through a temporary link. Answers the file name.
 */
export async function downloadInvoicePdf(invoice: { id: string; number: string }): Promise<string> {
  const response = await fetchApiFile('GET /api/platform/invoices/:invoiceId/pdf', { params: { invoiceId: invoice.id }, failure: 'The PDF could not be downloaded' });
  return saveFile(response, serverFileName(response, `${invoice.number}.pdf`));
}

export function useDownloadInvoicePdf() {
  return useMutation({ mutationFn: downloadInvoicePdf });
}
