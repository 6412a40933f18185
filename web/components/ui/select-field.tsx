import { Input, type InputWrapperProps } from '@mantine/core';
import { useId } from '@mantine/hooks';
import { IconChevronDown } from '@tabler/icons-react';
import type { ChangeEvent, FocusEvent } from 'react';

export type SelectOption = { value: string; label: string };

export type SelectFieldProps = Pick<InputWrapperProps, 'label' | 'description' | 'error' | 'withAsterisk' | 'mt' | 'maw'> & {
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
 * combobox code NativeSelect imports (15 KB on the public pages for a parsing helper and an icon).
 */
export function SelectField({ data, value, onChange, onFocus, onBlur, disabled, name, label, description, error, withAsterisk, mt, maw }: SelectFieldProps) {
  const id = useId();
  return (
    <Input.Wrapper id={id} label={label} description={description} error={error} withAsterisk={withAsterisk} mt={mt} maw={maw}>
      <Input
        component="select"
        id={id}
        name={name}
        value={value ?? ''}
        onChange={onChange}
        onFocus={onFocus}
        onBlur={onBlur}
        disabled={disabled}
        error={error}
        aria-invalid={error ? true : undefined}
        rightSection={<IconChevronDown size={16} aria-hidden />}
        rightSectionPointerEvents="none"
      >
        {data.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Input>
    </Input.Wrapper>
  );
}
