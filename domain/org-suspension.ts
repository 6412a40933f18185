// What a member of a suspended organization is told when they sign in (issue 22 item 14): which
// organization, why (the reason the platform staff gave when suspending it), and whom to contact
// (the platform's support e-mail and phone from the platform settings).

export type SuspensionNotice = {
  orgName: string;
  /** The reason given when it was suspended; null when none is on record. */
  reason: string | null;
  platformName: string;
  supportEmail: string | null;
  supportPhone: string | null;
};

/** "Acme Logistics is suspended: Unpaid invoices. To restore access, contact Baywise support at help@… or +61 …." */
export function suspendedOrganizationMessage(notice: SuspensionNotice): string {
  const why = notice.reason?.trim() ? `: ${notice.reason.trim().replace(/[.\s]+$/, '')}.` : '.';
  const ways = [notice.supportEmail, notice.supportPhone].filter((v): v is string => !!v);
  const whom = ways.length > 0 ? `${notice.platformName} support at ${ways.join(' or ')}` : `your ${notice.platformName} platform administrator`;
  return `${notice.orgName} is suspended${why} To restore access, contact ${whom}.`;
}
