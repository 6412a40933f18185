import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { I18nProvider, LANGUAGE_STORAGE_KEY, useLanguage } from './index';
import { useTranslateMessage } from './validation';

// Issue 27: the server's English texts (day notices, refusals) said in the chosen language, the
// values it wrote in English (dates, weekdays, durations, statuses, special access needs) re-said.

function translatorIn(language: 'de' | 'pl' | 'fr') {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  const wrapper = ({ children }: { children: ReactNode }) => <I18nProvider>{children}</I18nProvider>;
  return renderHook(() => ({ translate: useTranslateMessage(), language: useLanguage()[0] }), { wrapper });
}

describe('server texts in the chosen language', () => {
  it('Polish: a vehicle no bay offers the needs of, a date beyond the horizon, a number in metres', async () => {
    const { result } = translatorIn('pl');
    await waitFor(() => expect(result.current?.language).toBe('pl'));
    const say = result.current.translate;
    expect(say('No bay at Acme offers Hazardous Materials, Refrigerated.')).toBe('Żadne stanowisko w Acme nie oferuje: Materiały niebezpieczne, Chłodnia.');
    expect(say('Bookings open up to 60 days ahead: choose a date on or before 21 Jan 2027.')).toBe('Rezerwacje są otwarte do 60 dni naprzód: wybierz datę nie późniejszą niż 21 sty 2027.');
    // A one-day horizon in Polish grammar ("do 1 dnia"), where the English says "1 days".
    expect(say('Bookings open up to 1 days ahead: choose a date on or before 23 Nov 2026.')).toBe('Rezerwacje są otwarte do 1 dnia naprzód: wybierz datę nie późniejszą niż 23 lis 2026.');
    expect(say('No bay at Acme can take this vehicle: it is 4.8 m tall and the highest clearance is 4.5 m.')).toBe(
      'Żadne stanowisko w Acme nie przyjmie tego pojazdu: ma on 4,8 m wysokości, a największa dopuszczalna wysokość to 4,5 m.',
    );
    expect(say('A text the catalogue does not know')).toBe('A text the catalogue does not know');
  });

  it('German: a weekday the site is closed on and the minimum notice', async () => {
    const { result } = translatorIn('de');
    await waitFor(() => expect(result.current?.language).toBe('de'));
    const say = result.current.translate;
    expect(say('North Terminal is closed on Sundays.')).toBe('North Terminal ist am Sonntag geschlossen.');
    expect(say('Bookings must be made at least 2 hours in advance: no time is left on this day at North Terminal.')).toBe(
      'Buchungen müssen mindestens 2 Stunden im Voraus erfolgen: An diesem Tag ist bei North Terminal keine Zeit mehr frei.',
    );
  });

  it('French: a manage-link refusal naming the cutoff and a status', async () => {
    const { result } = translatorIn('fr');
    await waitFor(() => expect(result.current?.language).toBe('fr'));
    const say = result.current.translate;
    expect(say('Bookings cannot be cancelled or changed online less than 24 hours before their start. Please contact Dock 5 directly.')).toBe(
      'Une réservation ne peut plus être annulée ni modifiée en ligne moins de 24\u00a0heures avant son début. Veuillez contacter directement Dock 5.',
    );
    expect(say('This booking can no longer be cancelled (status: checked_in)')).toBe('Cette réservation ne peut plus être annulée (statut : enregistrée)');
  });
});
