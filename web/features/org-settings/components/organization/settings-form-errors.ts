import { applyApiFieldErrors, zodFormValidate } from '../../../../lib/zod-form';
import type { z } from 'zod';

// A list field (the recipients' addresses) shows one message for the whole list: an error on its
// third item ('notifications.newRequestEmails.2') belongs to 'notifications.newRequestEmails'.

const fieldOf = (path: string, listFields: string[]) => listFields.find((f) => path === f || path.startsWith(`${f}.`)) ?? path;

/** zodFormValidate, with errors of list items moved onto their list. */
export function validateWithLists<S extends z.ZodType>(schema: S, listFields: string[]) {
  const validate = zodFormValidate(schema);
  return (values: unknown): Record<string, string> => {
    const errors: Record<string, string> = {};
    for (const [path, message] of Object.entries(validate(values))) {
      const field = fieldOf(path, listFields);
      if (!(field in errors)) errors[field] = message;
    }
    return errors;
  };
}

/** applyApiFieldErrors, with errors of list items moved onto their list. */
export function applyApiErrorsWithLists(error: unknown, setFieldError: (path: string, message: string) => void, listFields: string[]): boolean {
  return applyApiFieldErrors(error, (path, message) => setFieldError(fieldOf(path, listFields), message));
}
