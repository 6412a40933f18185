import { useSearchParams } from 'react-router';

/**
 * A list screen's filters and page in the address: `params` to read them, `update` to change some
 * (an empty value removes one). A filter change goes back to the first page unless `keepPage`.
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const update = (changes: Record<string, string | null>, keepPage = false) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        if (!keepPage) next.delete('page');
        return next;
      },
      { replace: true },
    );
  };
  return { params, update };
}
