import { TextInput, type TextInputProps } from '@mantine/core';

export type DateFieldProps = Omit<TextInputProps, 'type' | 'value' | 'onChange' | 'min' | 'max'> & {
  /** 'YYYY-MM-DD', or null when no day is chosen. */
  value: string | null;
  onChange: (date: string | null) => void;
  /** First and last day offered, 'YYYY-MM-DD'. */
  minDate?: string;
  maxDate?: string;
};

/**
 * A calendar day: the browser's own date input (its picker on desktop, the system wheel on phones),
 * limited to [minDate, maxDate]. A day typed outside the range still reaches the form, where the
 * server's answer says why it has nothing.
 */
export function DateField({ value, onChange, minDate, maxDate, ...rest }: DateFieldProps) {
  return (
    <TextInput
      {...rest}
      type="date"
      min={minDate}
      max={maxDate}
      value={value ?? ''}
      onChange={(event) => onChange(event.currentTarget.value || null)}
    />
  );
}
