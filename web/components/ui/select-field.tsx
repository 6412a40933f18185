import { IconChevronDown } from '@tabler/icons-react';
import type { ChangeEvent, FocusEvent } from 'react';
import { LightSelect, type FieldFrameProps } from './light-fields';

export type SelectOption = { value: string; label: string };

export type SelectFieldProps = FieldFrameProps & {
  data: SelectOption[];
  value?: string;
  onChange?: (event: ChangeEvent<HTMLSelectElement>) => void;
  onFocus?: (event: FocusEvent<HTMLSelectElement>) => void;
  onBlur?: (event: FocusEvent<HTMLSelectElement>) => void;
  disabled?: boolean;
  name?: string;
};

/**
 * The browser's own <select> in Mantine's input frame: what NativeSelect renders, without the
 * combobox code NativeSelect imports (15 KB on the public pages for a parsing helper and an icon),
 * and drawn by one small component instead of Mantine's nested ones (light-fields.tsx).
 */
export function SelectField({ data, value, onChange, onFocus, onBlur, disabled, name, ...frame }: SelectFieldProps) {
  return (
    <LightSelect
      {...frame}
      name={name}
      value={value ?? ''}
      onChange={onChange}
      onFocus={onFocus}
      onBlur={onBlur}
      disabled={disabled}
      rightSection={<IconChevronDown size={16} aria-hidden />}
    >
      {data.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </LightSelect>
  );
}
