import { useDocumentTitle } from '@mantine/hooks';

/** Sets the browser tab title to "<title> · Baywise". */
export function usePageTitle(title: string): void {
  useDocumentTitle(title ? `${title} · Baywise` : 'Baywise');
}
