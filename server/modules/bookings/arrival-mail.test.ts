import { describe, expect, it } from 'vitest';
import { formatArrivalCode } from '../../../domain/arrival-code';
import { arrivalCodeFor } from './arrival-code';
import { ARRIVAL_QR_CID, arrivalMarkFor } from './arrival-qr';
import { renderBookingChanged, renderBookingConfirmation, type BookingMailFacts } from './booking-mail';

// The arrival code in the haulier's confirmation and approval mails: typed in the text and HTML
// parts, and as an inline QR code the HTML part shows by its content id.

const secret = new TextEncoder().encode('test-secret-test-secret-test-secret-0123');
const facts: BookingMailFacts = {
  id: '7d1f3a52-5b7e-4c7a-9a55-1f2f3e4d5c6b',
  reference: 'TSR-1001',
  status: 'approved',
  version: 2,
  orgName: 'Acme Logistics',
  siteName: 'North Terminal',
  siteAddress: '1 Wharf Rd',
  bayName: 'N-05',
  timeZone: 'Australia/Sydney',
  startTime: new Date('2026-12-01T22:30:00Z'),
  endTime: new Date('2026-12-01T23:30:00Z'),
  tenantName: 'Fast Freight',
  contactName: 'Dana',
  tenantEmail: 'dana@fast.test',
  bookingType: 'delivery',
  vehicleType: 'rigid',
  vehicleRegistration: 'ABC123',
  documents: 0,
};
const manageUrl = 'http://localhost:3000/book/manage/token123';

describe('arrival code in the haulier’s mail', () => {
  it('the confirmation carries the typed code and the inline QR code', async () => {
    const arrival = await arrivalMarkFor({ authSecret: secret }, facts.id);
    expect(arrival.code).toBe(formatArrivalCode(arrivalCodeFor(secret, facts.id)));
    const mail = renderBookingConfirmation(facts, manageUrl, arrival);
    expect(mail.text).toContain(`Arrival code: ${arrival.code}`);
    expect(mail.html).toContain(arrival.code);
    expect(mail.html).toContain(`src="cid:${ARRIVAL_QR_CID}"`);
    expect(mail.html).toContain(`<a href="${manageUrl}">`);
    expect(mail.attachments?.map((a) => a.filename)).toEqual(['booking.ics', 'arrival-code.png']);
    const qr = mail.attachments!.find((a) => a.cid === ARRIVAL_QR_CID)!;
    // A PNG.
    expect((qr.content as Buffer).subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('the approval carries it; a decline or a cancellation does not', async () => {
    const arrival = await arrivalMarkFor({ authSecret: secret }, facts.id);
    const approved = renderBookingChanged(facts, manageUrl, 'approved', null, arrival);
    expect(approved.text).toContain(`Arrival code: ${arrival.code}`);
    expect(approved.html).toContain(`src="cid:${ARRIVAL_QR_CID}"`);
    expect(approved.attachments?.some((a) => a.cid === ARRIVAL_QR_CID)).toBe(true);
    for (const change of ['declined', 'cancelled_by_site'] as const) {
      const mail = renderBookingChanged({ ...facts, status: change === 'declined' ? 'declined' : 'cancelled' }, manageUrl, change, 'Closed', arrival);
      expect(mail.text).not.toContain('Arrival code');
      expect(mail.html).toBeUndefined();
      expect(mail.attachments?.some((a) => a.cid)).toBe(false);
    }
  });

  it('different bookings have different codes, each mail showing its own', async () => {
    const a = await arrivalMarkFor({ authSecret: secret }, facts.id);
    const b = await arrivalMarkFor({ authSecret: secret }, '0b6a8f2e-1c3d-4e5f-8a9b-0c1d2e3f4a5b');
    expect(a.code).not.toBe(b.code);
    expect(renderBookingConfirmation(facts, manageUrl, a).html).not.toContain(`alt="QR code of arrival code ${b.code}"`);
  });
});
