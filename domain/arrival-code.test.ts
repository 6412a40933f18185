import { describe, expect, it } from 'vitest';
import { arrivalQrText, formatArrivalCode, normalizeArrivalCode } from './arrival-code';

describe('arrival code', () => {
  it('prints as two groups of four', () => {
    expect(formatArrivalCode('K7M29QXD')).toBe('K7M2-9QXD');
  });

  it('reads what a driver types, forgiving case, spaces, dashes and look-alike letters', () => {
    expect(normalizeArrivalCode(' k7m2-9qxd ')).toBe('K7M29QXD');
    expect(normalizeArrivalCode('K7M2 9QXD')).toBe('K7M29QXD');
    expect(normalizeArrivalCode('OILO-0000')).toBe('0110' + '0000');
  });

  it('reads the QR code text', () => {
    expect(normalizeArrivalCode(arrivalQrText('K7M29QXD'))).toBe('K7M29QXD');
  });

  it('refuses what cannot be a code', () => {
    expect(normalizeArrivalCode('K7M2-9QX')).toBeNull();
    expect(normalizeArrivalCode('K7M2-9QXU')).toBeNull();
    expect(normalizeArrivalCode('https://example.com/b/manage/abc')).toBeNull();
    expect(normalizeArrivalCode('')).toBeNull();
  });
});
