// The platform settings and error-monitoring endpoints and query keys. Keys start with ['platform'],
// like the other platform screens', so a refresh of the platform's data includes them.

import type { ErrorGroupListQuery } from '../../../../domain/error-monitoring';

export const settingsPaths = {
  settings: '/api/platform/settings',
  errors: '/api/platform/errors',
  error: (fingerprint: string) => `/api/platform/errors/${encodeURIComponent(fingerprint)}`,
  resolve: (fingerprint: string) => `/api/platform/errors/${encodeURIComponent(fingerprint)}/resolve`,
  reopen: (fingerprint: string) => `/api/platform/errors/${encodeURIComponent(fingerprint)}/reopen`,
} as const;

export const settingsKeys = {
  settings: ['platform', 'settings'] as const,
  errors: ['platform', 'errors'] as const,
  errorList: (query: ErrorGroupListQuery) => ['platform', 'errors', 'list', query] as const,
  error: (fingerprint: string) => ['platform', 'errors', 'detail', fingerprint] as const,
};

