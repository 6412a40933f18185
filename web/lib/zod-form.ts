import type { z } from 'zod';

/**
 * A @mantine/form `validate` function from a zod schema: the first message per field, keyed by
 * the field's path, so forms show the same messages the API sends.
 */
export function zodFormValidate<S extends z.ZodType>(schema: S) {
  return (values: unknown): Record<string, string> => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const key = issue.path.join('.');
      if (!(key in errors)) errors[key] = issue.message;
    }
    return errors;
  };
}

/**
 * Field errors from a validation_error answer ({ details: [{ path, message }] }): maps each onto
 * the form field of the same path. Returns true when at least one was set.
 */
export function applyApiFieldErrors(error: unknown, setFieldError: (path: string, message: string) => void): boolean {
  const details = (error as { details?: unknown } | null)?.details;
  if (!Array.isArray(details)) return false;
  let applied = false;
  for (const item of details) {
    const { path, message } = (item ?? {}) as { path?: unknown; message?: unknown };
    if (typeof path === 'string' && path && typeof message === 'string') {
      setFieldError(path, message);
      applied = true;
    }
  }
  return applied;
}
