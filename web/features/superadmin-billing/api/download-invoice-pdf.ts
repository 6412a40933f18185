import { useMutation } from '@tanstack/react-query';
import { ApiError, currentAccessToken } from '../../../lib/api-client';
import { billingPaths } from './paths';

/** The file name the server gives in Content-Disposition, else the invoice number's. */
function fileNameOf(response: Response, fallback: string): string {
  const match = /filename="?([^";]+)"?/i.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? fallback;
}

/**
 * GET /api/platform/invoices/{invoiceId}/pdf — fetched with the session's token (a plain link could
 * not carry it), then saved through a temporary link. Answers the file name.
 */
export async function downloadInvoicePdf(invoice: { id: string; number: string }): Promise<string> {
  const token = currentAccessToken();
  let response: Response;
  try {
    response = await fetch(billingPaths.invoicePdf(invoice.id), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    throw new ApiError(response.status, body?.error?.code ?? 'download_failed', body?.error?.message ?? `The PDF could not be downloaded (${response.status})`);
  }
  const fileName = fileNameOf(response, `${invoice.number}.pdf`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return fileName;
}

export function useDownloadInvoicePdf() {
  return useMutation({ mutationFn: downloadInvoicePdf });
}
