import { notifications } from '@mantine/notifications';

/** Toasts with a title and a message (spec §8 texts are passed verbatim by callers). */
export const toast = {
  success(title: string, message: string) {
    notifications.show({ title, message, color: 'green', withBorder: true });
  },
  error(title: string, message: string) {
    notifications.show({ title, message, color: 'red', withBorder: true });
  },
  /** Removes every toast, e.g. stale errors of failed attempts once a sign-in succeeds. */
  clear() {
    notifications.clean();
  },
  info(title: string, message: string) {
    notifications.show({ title, message, color: 'indigo', withBorder: true });
  },
};
