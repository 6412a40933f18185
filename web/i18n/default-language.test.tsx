import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nProvider, LANGUAGE_STORAGE_KEY, useOrganizationDefaultLanguage, useT } from './index';

// The organization's portal language (issue 27) is applied when the haulier has not chosen one.
// When it is the language already shown, nothing changes: the translated screen (the whole booking
// form) is not rendered a second time for it (issue 25: a phone's first visit).

let renders = 0;
function Page({ orgLanguage }: { orgLanguage: string }) {
  const { t, language } = useT('portal');
  useOrganizationDefaultLanguage(orgLanguage);
  renders++;
  return (
    <p>
      {language}: {t('request.title')}
    </p>
  );
}

afterEach(() => localStorage.removeItem(LANGUAGE_STORAGE_KEY));

describe("the organization's default language", () => {
  it('does not render the page again when it is the language shown', async () => {
    renders = 0;
    render(
      <I18nProvider>
        <Page orgLanguage="en" />
      </I18nProvider>,
    );
    await screen.findByText(/^en: /);
    // Let the default language's activation run to its end.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(renders).toBe(1);
  });

});
