import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BOOKING_REQUEST_MESSAGES,
  DURATION_RANGE_MESSAGE,
  bookingRequestSchema,
  emptyToNull,
  formatValidationError,
  isCalendarDate,
  isTimeOfDay,
  metresToMm,
  normalizeDuration,
  toBookingRecord,
  validateBookingRequest,
  type BookingRequest,
  type BookingRequestInput,
} from './booking-request';

const ORG_ID = '6f1c1d4e-2f7a-4c1e-9a1b-3d2e4f5a6b7c';

/** The web form's state before the haulier types anything (spec §3 defaults). */
const emptyForm: BookingRequestInput = {
  orgId: ORG_ID,
  tsrNumber: '',
  tsrSystemType: '',
  tsrUrl: '',
  tenantName: '',
  contactName: '',
  tenantEmail: '',
  tenantPhone: '',
  bookingType: 'delivery',
  date: '',
  slot: '',
  expectedDurationMin: 30,
  vehicleType: '',
  vehicleRegistration: '',
  vehicleHeightM: '',
  vehicleLengthM: '',
  specialAccessNeeds: [],
  goodsDescription: '',
  driverInductionCompleted: false,
  termsAccepted: false,
  notes: '',
};

const validForm: BookingRequestInput = {
  ...emptyForm,
  tsrNumber: 'TSR-1001',
  tsrSystemType: 'servicenow',
  tenantName: 'Acme Freight',
  contactName: 'Jo Driver',
  tenantEmail: 'jo@acme.example',
  date: '2026-06-01',
  slot: '09:30',
  vehicleType: 'rigid',
  vehicleRegistration: 'abc123',
  vehicleHeightM: 4.2,
  driverInductionCompleted: true,
  termsAccepted: true,
};

/** The spec §5 required-field messages, in the spec's order. */
const REQUIRED_MESSAGES = [
  'TSR Number is required',
  'Company Name is required',
  'Contact Name is required',
  'Email is required',
  'Vehicle Type is required',
  'Vehicle Registration is required',
  'Vehicle Height is required',
  'Date is required',
  'Time slot is required',
  'Driver induction must be completed',
  'Terms and conditions must be accepted',
];

function messagesFor(input: unknown): string[] {
  const result = validateBookingRequest(input);
  return result.ok ? [] : result.messages;
}

function dataFor(input: unknown): BookingRequest {
  const result = validateBookingRequest(input);
  if (!result.ok) throw new Error(`expected a valid request, got: ${result.messages.join(', ')}`);
  return result.data;
}

describe('validateBookingRequest: the spec messages', () => {
  it('lists every required-field message, in the spec order, for the empty form', () => {
    expect(messagesFor(emptyForm)).toEqual(REQUIRED_MESSAGES);
  });

  it('treats whitespace-only text as empty (checked after trimming)', () => {
    const blank = { ...emptyForm, tsrNumber: '   ', tenantName: '\t', contactName: ' \n ', tenantEmail: '  ', vehicleType: ' ' };
    expect(messagesFor(blank)).toEqual(REQUIRED_MESSAGES);
  });

  it('reports missing fields the same way when nothing is sent, with the organization after the spec list', () => {
    expect(messagesFor({})).toEqual([...REQUIRED_MESSAGES, 'Organization is required']);
    expect(messagesFor(undefined)).toEqual([...REQUIRED_MESSAGES, 'Organization is required']);
    expect(messagesFor(null)).toEqual([...REQUIRED_MESSAGES, 'Organization is required']);
  });

  it('uses exactly the texts of spec §5', () => {
    expect(Object.values(BOOKING_REQUEST_MESSAGES)).toEqual([...REQUIRED_MESSAGES, 'Please enter a valid email address']);
  });

  it('accepts a complete form', () => {
    expect(validateBookingRequest(validForm).ok).toBe(true);
  });

  it('joins messages with a comma and a space for the Validation Error toast', () => {
    expect(formatValidationError(['TSR Number is required', 'Email is required'])).toBe(
      'TSR Number is required, Email is required',
    );
    expect(formatValidationError(messagesFor(emptyForm))).toBe(REQUIRED_MESSAGES.join(', '));
  });
});

describe('validateBookingRequest: email', () => {
  it.each(['jo', 'jo@acme', 'jo@acme.', '@acme.com', 'jo @acme.com', 'jo@ac me.com', 'jo@@acme.com'])(
    'refuses %j',
    (email) => {
      expect(messagesFor({ ...validForm, tenantEmail: email })).toEqual(['Please enter a valid email address']);
    },
  );

  it.each(['jo@acme.com', 'jo.smith+dock@mail.acme.com.au', '  jo@acme.io  '])('accepts %j (trimmed)', (email) => {
    expect(dataFor({ ...validForm, tenantEmail: email }).tenantEmail).toBe(email.trim());
  });

  it('says only "Email is required" for an empty email', () => {
    const messages = messagesFor({ ...validForm, tenantEmail: '' });
    expect(messages).toEqual(['Email is required']);
  });

  it('puts the email format message last, after the other spec messages', () => {
    const messages = messagesFor({ ...emptyForm, tenantEmail: 'not-an-email' });
    const othersRequired = REQUIRED_MESSAGES.filter((m) => m !== 'Email is required');
    expect(messages).toEqual([...othersRequired, 'Please enter a valid email address']);
  });
});

describe('validateBookingRequest: duration', () => {
  it.each([14, 481, 0, -30])('refuses %d minutes', (minutes) => {
    expect(messagesFor({ ...validForm, expectedDurationMin: minutes })).toEqual([DURATION_RANGE_MESSAGE]);
  });

  it('says the range in the message', () => {
    expect(DURATION_RANGE_MESSAGE).toBe('Expected duration must be between 15 and 480 minutes');
  });

  it.each([15, 30, 240, 480])('accepts %d minutes', (minutes) => {
    expect(dataFor({ ...validForm, expectedDurationMin: minutes }).expectedDurationMin).toBe(minutes);
  });

  it('defaults to 30 minutes when the field is not sent', () => {
    const { expectedDurationMin: _omitted, ...withoutDuration } = validForm;
    expect(dataFor(withoutDuration).expectedDurationMin).toBe(30);
  });

  it('reads the text of a number (HTML inputs)', () => {
    expect(dataFor({ ...validForm, expectedDurationMin: ' 45 ' }).expectedDurationMin).toBe(45);
  });

  it.each([Number.NaN, null, 'abc', '', Infinity])('refuses a sent non-number %j with a clear message', (value) => {
    expect(messagesFor({ ...validForm, expectedDurationMin: value })).toEqual(['Expected duration must be a number of minutes']);
  });

  it('refuses fractions of a minute', () => {
    expect(messagesFor({ ...validForm, expectedDurationMin: 30.5 })).toEqual([
      'Expected duration must be a whole number of minutes',
    ]);
  });
});

describe('normalizeDuration (the duration input, spec §5)', () => {
  it.each([
    [Number.NaN, 30],
    ['abc', 30],
    ['', 30],
    [undefined, 30],
    [null, 30],
    [Infinity, 30],
    ['45', 45],
    [60, 60],
    [14, 14],
    [481, 481],
    [45.7, 45],
  ])('%j → %d', (value, expected) => {
    expect(normalizeDuration(value)).toBe(expected);
  });
});

describe('validateBookingRequest: vehicle', () => {
  it('trims and upper-cases the registration', () => {
    expect(dataFor({ ...validForm, vehicleRegistration: '  abc 12x ' }).vehicleRegistration).toBe('ABC 12X');
  });

  it.each([0, -1, '', 'tall', null, Number.NaN])('answers "Vehicle Height is required" for %j', (height) => {
    expect(messagesFor({ ...validForm, vehicleHeightM: height })).toEqual(['Vehicle Height is required']);
  });

  it('reads heights given as text', () => {
    expect(dataFor({ ...validForm, vehicleHeightM: '4.3' }).vehicleHeightM).toBe(4.3);
  });

  it('refuses absurd heights and lengths', () => {
    expect(messagesFor({ ...validForm, vehicleHeightM: 1e300 })).toEqual(['Vehicle Height must be at most 10 m']);
    expect(messagesFor({ ...validForm, vehicleLengthM: 61 })).toEqual(['Vehicle Length must be at most 60 m']);
  });

  it('lets length be left out, but not negative or non-numeric', () => {
    expect(dataFor({ ...validForm, vehicleLengthM: '' }).vehicleLengthM).toBeUndefined();
    expect(dataFor({ ...validForm, vehicleLengthM: null }).vehicleLengthM).toBeUndefined();
    expect(dataFor({ ...validForm, vehicleLengthM: 0 }).vehicleLengthM).toBe(0);
    expect(dataFor({ ...validForm, vehicleLengthM: 12.5 }).vehicleLengthM).toBe(12.5);
    expect(messagesFor({ ...validForm, vehicleLengthM: -1 })).toEqual(['Vehicle Length cannot be negative']);
    expect(messagesFor({ ...validForm, vehicleLengthM: 'long' })).toEqual(['Vehicle Length must be a number']);
  });

  it('refuses an unknown vehicle type', () => {
    expect(messagesFor({ ...validForm, vehicleType: 'tank' })).toEqual([
      'Vehicle Type must be one of: car, van, rigid, semi, b-double, other',
    ]);
  });

  it('keeps special access needs once each and refuses unknown ones', () => {
    const needs = ['refrigerated', 'hazardous', 'refrigerated'];
    expect(dataFor({ ...validForm, specialAccessNeeds: needs }).specialAccessNeeds).toEqual(['refrigerated', 'hazardous']);
    expect(dataFor({ ...validForm, specialAccessNeeds: null }).specialAccessNeeds).toEqual([]);
    expect(messagesFor({ ...validForm, specialAccessNeeds: ['wide', 'tall'] })).toEqual([
      'Special access needs must be among: oversize, hazardous, refrigerated, escort',
    ]);
  });
});

describe('validateBookingRequest: other fields', () => {
  it('trims text and turns blank optional fields into undefined', () => {
    const padded = { tsrNumber: '  TSR-9  ', tenantName: ' Acme ', tenantPhone: '   ', tsrSystemType: ' ', notes: ' hi ' };
    const data = dataFor({ ...validForm, ...padded });
    expect(data).toMatchObject({ tsrNumber: 'TSR-9', tenantName: 'Acme', tenantPhone: undefined, notes: 'hi' });
    expect(data.tsrUrl).toBeUndefined();
    expect(data.tsrSystemType).toBeUndefined();
  });

  it('keeps the phone as typed, with no format check', () => {
    expect(dataFor({ ...validForm, tenantPhone: '+61 (2) 9999-0000 ext 4' }).tenantPhone).toBe('+61 (2) 9999-0000 ext 4');
  });

  it('defaults the booking type to delivery and refuses unknown ones', () => {
    const { bookingType: _omitted, ...withoutType } = validForm;
    expect(dataFor(withoutType).bookingType).toBe('delivery');
    expect(dataFor({ ...validForm, bookingType: '' }).bookingType).toBe('delivery');
    expect(dataFor({ ...validForm, bookingType: 'both' }).bookingType).toBe('both');
    expect(messagesFor({ ...validForm, bookingType: 'collect' })).toEqual([
      'Booking Type must be one of: delivery, pickup, both',
    ]);
  });

  it('refuses an unknown TSR system', () => {
    expect(messagesFor({ ...validForm, tsrSystemType: 'jira' })).toEqual([
      'TSR System Type must be one of: servicenow, fmclarity, other',
    ]);
  });

  it.each(['not a url', 'javascript:alert(1)', 'ftp://files.example.com/x'])('refuses TSR URL %j', (url) => {
    expect(messagesFor({ ...validForm, tsrUrl: url })).toEqual(['TSR URL must be a valid web address (http or https)']);
  });

  it('accepts an http(s) TSR URL', () => {
    expect(dataFor({ ...validForm, tsrUrl: ' https://acme.service-now.com/tsr/1 ' }).tsrUrl).toBe(
      'https://acme.service-now.com/tsr/1',
    );
  });

  it.each(['2026-02-30', '2026-13-01', '26-06-01', '2026/06/01', 'tomorrow'])('refuses date %j', (date) => {
    expect(messagesFor({ ...validForm, date })).toEqual(['Date must be a valid date (YYYY-MM-DD)']);
  });

  it.each(['24:00', '9:30', '09:60', 'noon'])('refuses slot %j', (slot) => {
    expect(messagesFor({ ...validForm, slot })).toEqual(['Time slot must be a time of day (HH:mm)']);
  });

  it('refuses a bad organization id', () => {
    expect(messagesFor({ ...validForm, orgId: 'acme' })).toEqual(['Organization is invalid']);
  });

  it('says which text is too long, once, even for 10 MB', () => {
    const huge = 'x'.repeat(10 * 1024 * 1024);
    expect(messagesFor({ ...validForm, tenantName: 'x'.repeat(201) })).toEqual(['Company Name is too long']);
    expect(messagesFor({ ...validForm, tenantName: 'x'.repeat(200) })).toEqual([]);
    expect(messagesFor({ ...validForm, tenantEmail: huge })).toEqual(['Email is too long']);
    expect(messagesFor({ ...validForm, notes: huge, goodsDescription: huge })).toEqual([
      'Goods Description is too long',
      'Notes is too long',
    ]);
    expect(messagesFor({ ...validForm, tsrNumber: huge, vehicleRegistration: 'X'.repeat(21) })).toEqual([
      'TSR Number is too long',
      'Vehicle Registration is too long',
    ]);
  });

  it('refuses wrong types with a clear message', () => {
    expect(messagesFor({ ...validForm, tsrNumber: 42 })).toEqual(['TSR Number must be text']);
    expect(messagesFor({ ...validForm, driverInductionCompleted: 'true', termsAccepted: 1 })).toEqual([
      'Driver induction must be completed',
      'Terms and conditions must be accepted',
    ]);
  });

  it('never throws and always explains a refusal, whatever it is sent', () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        const result = validateBookingRequest(input);
        if (!result.ok) expect(result.messages.length).toBeGreaterThan(0);
      }),
    );
  });

  it('accepts any padding around valid text and stores it trimmed', () => {
    const padding = fc.stringMatching(/^[ \t]{0,3}$/);
    fc.assert(
      fc.property(padding, padding, (before, after) => {
        const data = dataFor({ ...validForm, tsrNumber: `${before}TSR-7${after}`, contactName: `${before}Jo${after}` });
        expect([data.tsrNumber, data.contactName]).toEqual(['TSR-7', 'Jo']);
      }),
    );
  });

  it('can be described as JSON Schema for the API docs', () => {
    expect(() => z.toJSONSchema(bookingRequestSchema, { io: 'input', unrepresentable: 'any' })).not.toThrow();
  });
});

describe('format helpers', () => {
  it('isCalendarDate and isTimeOfDay', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isTimeOfDay('00:00')).toBe(true);
    expect(isTimeOfDay('23:59')).toBe(true);
    expect(isTimeOfDay('24:00')).toBe(false);
  });
});

describe('record helpers', () => {
  it('metresToMm multiplies by 1000 and rounds', () => {
    expect(metresToMm(4.2)).toBe(4200);
    expect(metresToMm(4.1)).toBe(4100); // 4.1 * 1000 = 4099.999…
    expect(metresToMm(2.0004)).toBe(2000);
    expect(metresToMm(2.0005)).toBe(2001);
    expect(metresToMm(0)).toBe(0);
  });

  it('emptyToNull turns blanks, empty lists and undefined into null', () => {
    expect(emptyToNull('')).toBeNull();
    expect(emptyToNull('   ')).toBeNull();
    expect(emptyToNull(undefined)).toBeNull();
    expect(emptyToNull(null)).toBeNull();
    expect(emptyToNull([])).toBeNull();
    expect(emptyToNull('x')).toBe('x');
    expect(emptyToNull(['a'])).toEqual(['a']);
    expect(emptyToNull(0)).toBe(0);
    expect(emptyToNull(false)).toBe(false);
  });

  it('toBookingRecord maps a request onto the booking columns', () => {
    const start = new Date('2026-06-01T09:30:00Z');
    const end = new Date('2026-06-01T10:00:00Z');
    const request = dataFor({ ...validForm, vehicleLengthM: 12.34, specialAccessNeeds: ['escort'], notes: 'gate 2' });
    expect(toBookingRecord(request, { start, end })).toEqual({
      tsrNumber: 'TSR-1001',
      tsrSystemType: 'servicenow',
      tsrUrl: null,
      tenantName: 'Acme Freight',
      contactName: 'Jo Driver',
      tenantEmail: 'jo@acme.example',
      tenantPhone: null,
      bookingType: 'delivery',
      startTime: start,
      endTime: end,
      windowStart: start,
      windowEnd: end,
      vehicleType: 'rigid',
      vehicleRegistration: 'ABC123',
      vehicleHeightMm: 4200,
      vehicleLengthMm: 12340,
      vehicleHeightM: 4.2,
      vehicleLengthM: 12.34,
      specialAccessNeeds: ['escort'],
      goodsDescription: null,
      expectedDurationMin: 30,
      driverInductionCompleted: true,
      notes: 'gate 2',
      idempotencyKey: null,
    });
  });

  it('toBookingRecord stores absent length and needs as null', () => {
    const record = toBookingRecord(dataFor(validForm), { start: new Date(0), end: new Date(1) });
    expect(record).toMatchObject({ vehicleLengthM: null, vehicleLengthMm: null, specialAccessNeeds: null });
  });
});
