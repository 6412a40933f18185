import { Input } from '@mantine/core';
import { IconChevronDown, IconLanguage } from '@tabler/icons-react';
import { LANGUAGE_NAMES, LANGUAGES, isLanguage } from '../../domain/languages';
import { useLanguage, useT } from './index';

/**
 * The haulier's language, each named in itself: the browser's own <select> (keyboard and screen
 * reader behaviour for free, no combobox code on the public pages), remembered on this device.
 */
export function LanguagePicker() {
  const [language, setLanguage] = useLanguage();
  const { t } = useT('portal');
  return (
    <Input
      component="select"
      size="xs"
      w={128}
      aria-label={t('language.label')}
      value={language}
      onChange={(event: React.ChangeEvent<HTMLSelectElement>) => {
        const next = event.currentTarget.value;
        if (isLanguage(next)) setLanguage(next);
      }}
      leftSection={<IconLanguage size={16} aria-hidden />}
      rightSection={<IconChevronDown size={14} aria-hidden />}
      rightSectionPointerEvents="none"
    >
      {LANGUAGES.map((code) => (
        <option key={code} value={code} lang={code}>
          {LANGUAGE_NAMES[code]}
        </option>
      ))}
    </Input>
  );
}
