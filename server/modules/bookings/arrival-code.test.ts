import { describe, expect, it } from 'vitest';
import { normalizeArrivalCode } from '../../../domain/arrival-code';
import { arrivalCodeFor } from './arrival-code';
import { manageTokenFor } from './manage-token';

const secret = new TextEncoder().encode('x'.repeat(32));
const otherSecret = new TextEncoder().encode('y'.repeat(32));
const id = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';

describe('arrivalCodeFor', () => {
  it('is eight symbols of the code alphabet, the same every time for one booking', () => {
    const code = arrivalCodeFor(secret, id);
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(arrivalCodeFor(secret, id)).toBe(code);
    expect(normalizeArrivalCode(code)).toBe(code);
  });

  it('differs between bookings and between servers, and is not part of the manage token', () => {
    const code = arrivalCodeFor(secret, id);
    expect(arrivalCodeFor(secret, '2b4e28ba-2fa1-11d2-883f-0016d3cca427')).not.toBe(code);
    expect(arrivalCodeFor(otherSecret, id)).not.toBe(code);
    expect(manageTokenFor(secret, id).toUpperCase()).not.toContain(code);
  });

  it('spreads over the alphabet (no clash among 20,000 bookings)', () => {
    const codes = new Set<string>();
    for (let i = 0; i < 20_000; i++) codes.add(arrivalCodeFor(secret, `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`));
    expect(codes.size).toBe(20_000);
  });
});
