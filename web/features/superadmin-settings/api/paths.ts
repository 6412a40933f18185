// The platform settings and error-monitoring query keys (the endpoints are named by their contract
// keys). Keys start with ['platform'], like the other platform screens', so a refresh of the
// platform's data includes them.

import type { ErrorGroupListQuery } from '../../../../domain/error-monitoring';

export const settingsKeys = {
  settings: ['platform', 'settings'] as const,
  errors: ['platform', 'errors'] as const,
  errorList: (query: ErrorGroupListQuery) => ['platform', 'errors', 'list', query] as const,
  error: (fingerprint: string) => ['platform', 'errors', 'detail', fingerprint] as const,
};

