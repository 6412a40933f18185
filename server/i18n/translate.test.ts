import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cataloguesAt, translate, translatorFor } from './translate';

describe('translate (ICU catalogues of domain/i18n)', () => {
  it('formats Polish plurals: one, few and many', () => {
    const t = translatorFor('pl', 'mail');
    expect([1, 2, 4, 5, 12, 22, 25].map((hours) => t('reminder.inHours', { hours }))).toEqual([
      'za 1 godzinę',
      'za 2 godziny',
      'za 4 godziny',
      'za 5 godzin',
      'za 12 godzin',
      'za 22 godziny',
      'za 25 godzin',
    ]);
    expect(translate('pl', 'mail', 'reminder.inDays', { days: 2 })).toBe('za 2 dni');
  });

  it('keeps the English texts and fills placeholders', () => {
    expect(translate('en', 'mail', 'reminder.inHours', { hours: 1 })).toBe('in 1 hour');
    expect(translate('en', 'mail', 'received.subject', { reference: 'TSR-1' })).toBe('Booking request received – TSR-1');
    expect(translate('de', 'mail', 'greeting', { name: 'Jo' })).toBe('Hallo Jo,');
  });

  it('falls back to English for a key a language lacks, and to the key when English lacks it too', () => {
    const { translate: fixture } = cataloguesAt(path.join(import.meta.dirname, 'fixtures'));
    expect(fixture('pl', 'sample', 'hello', { name: 'Ola' })).toBe('Cześć Ola');
    expect(fixture('pl', 'sample', 'only.english')).toBe('Only in English');
    expect(fixture('fr', 'sample', 'hello', { name: 'Zoé' })).toBe('Hello Zoé');
    expect(fixture('de', 'sample', 'nowhere')).toBe('nowhere');
  });
});
