import './light-fields.css';
import { createContext, useContext, useId, type ChangeEvent, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';

/*
 * Form fields for long public forms, drawn with Mantine's own stylesheet classes and attributes
 * (the same DOM as Mantine's TextInput, Textarea, Checkbox, Radio and their groups at size "sm",
 * so they look and behave the same) but rendered as one small component each. Mantine's versions
 * go through ~8 nested components per field (factory, props and styles resolution, Box, wrapper
 * context), which on the booking request form's ~30 fields was most of its first render: about
 * 0.5 s of a 4×-throttled phone's CPU (issue 25). Only what the public form uses is supported.
 */

const SIZE_SM_LABEL = { '--input-label-size': 'var(--mantine-font-size-sm)' } as React.CSSProperties;
const SIZE_SM_SMALL_TEXT = 'calc(var(--mantine-font-size-sm) - calc(0.125rem * var(--mantine-scale)))';
const HALF_XS = 'calc(var(--mantine-spacing-xs) / 2)';
const SPACING = { xs: 'var(--mantine-spacing-xs)', sm: 'var(--mantine-spacing-sm)', md: 'var(--mantine-spacing-md)', lg: 'var(--mantine-spacing-lg)' } as const;

type Spacing = keyof typeof SPACING;

export type FieldFrameProps = {
  label?: ReactNode;
  description?: ReactNode;
  /** A message shown under the field (anything but a string or element only marks it invalid). */
  error?: ReactNode;
  withAsterisk?: boolean;
  /** Space above the field. */
  mt?: Spacing;
  /** Widest the field may be, in px (Mantine's maw). */
  maw?: number;
};

/** What the frame gives its control: Mantine's attributes for the input, select or text area. */
type ControlProps = {
  id: string;
  'data-variant': 'default';
  'data-error': true | undefined;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
};

function hasMessage(error: ReactNode): boolean {
  return !!error && typeof error !== 'boolean';
}

/** The ids of the error message and the description under a field, as its aria-describedby. */
function describedByOf(id: string, error: ReactNode, description: ReactNode): string | undefined {
  return [hasMessage(error) ? `${id}-error` : '', description ? `${id}-description` : ''].filter(Boolean).join(' ') || undefined;
}

/** Mantine's Input.Wrapper markup: label, description, the input's frame, error. */
function FieldFrame({
  kind,
  label,
  description,
  error,
  withAsterisk,
  mt,
  maw,
  multiline,
  frameStyle,
  rightSection,
  children,
}: FieldFrameProps & {
  kind?: 'TextInput' | 'Textarea';
  multiline?: boolean;
  frameStyle?: Record<string, string>;
  rightSection?: ReactNode;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const hasError = hasMessage(error);
  const invalid = !!error;
  const part = (name: string) => (kind ? ` mantine-${kind}-${name}` : '');
  return (
    <div
      data-size="sm"
      data-error={invalid || undefined}
      className={`m_46b77525 mantine-InputWrapper-root${part('root')}`}
      style={mt || maw ? { marginTop: mt ? SPACING[mt] : undefined, maxWidth: maw ? `calc(${maw / 16}rem * var(--mantine-scale))` : undefined } : undefined}
    >
      {label ? (
        <label data-size="sm" data-required={withAsterisk || undefined} htmlFor={id} id={`${id}-label`} className={`m_8fdc1311 mantine-InputWrapper-label${part('label')}`} style={SIZE_SM_LABEL}>
          {label}
          {withAsterisk ? (
            <span aria-hidden="true" className={`m_78a94662 mantine-InputWrapper-required${part('required')}`}>
              {' *'}
            </span>
          ) : null}
        </label>
      ) : null}
      {description ? (
        <p data-size="sm" id={`${id}-description`} className={`m_fe47ce59 mantine-InputWrapper-description${part('description')}`} style={{ '--input-description-size': SIZE_SM_SMALL_TEXT } as React.CSSProperties}>
          {description}
        </p>
      ) : null}
      <div
        data-variant="default"
        data-size="sm"
        data-error={invalid || undefined}
        data-multiline={multiline || undefined}
        data-with-right-section={rightSection ? true : undefined}
        className={`m_6c018570 mantine-Input-wrapper${part('wrapper')}`}
        style={
          {
            ...(description ? { '--input-margin-top': HALF_XS } : {}),
            ...(hasError ? { '--input-margin-bottom': HALF_XS } : {}),
            '--input-height': 'var(--input-height-sm)',
            '--input-fz': 'var(--mantine-font-size-sm)',
            ...frameStyle,
          } as React.CSSProperties
        }
      >
        {children({ id, 'data-variant': 'default', 'data-error': invalid || undefined, 'aria-invalid': invalid, 'aria-describedby': describedByOf(id, error, description) })}
        {rightSection ? (
          <div data-position="right" className="m_82577fc2 mantine-Input-section">
            {rightSection}
          </div>
        ) : null}
      </div>
      {hasError ? (
        <p data-size="sm" id={`${id}-error`} className={`m_8f816625 mantine-InputWrapper-error${part('error')}`} style={{ '--input-error-size': SIZE_SM_SMALL_TEXT } as React.CSSProperties}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export type LightTextInputProps = FieldFrameProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'size' | 'children'>;

/** Mantine's TextInput (size sm, default variant), light. */
export function LightTextInput({ label, description, error, withAsterisk, mt, ...input }: LightTextInputProps) {
  return (
    <FieldFrame kind="TextInput" label={label} description={description} error={error} withAsterisk={withAsterisk} mt={mt}>
      {(control) => <input {...input} {...control} className="m_8fb7ebe7 mantine-Input-input mantine-TextInput-input" />}
    </FieldFrame>
  );
}

export type LightTextareaProps = FieldFrameProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'children'>;

/** Mantine's Textarea (size sm), light. */
export function LightTextarea({ label, description, error, withAsterisk, mt, ...textarea }: LightTextareaProps) {
  return (
    <FieldFrame kind="Textarea" label={label} description={description} error={error} withAsterisk={withAsterisk} mt={mt} multiline frameStyle={{ '--input-padding-y': 'var(--input-padding-y-sm)' }}>
      {(control) => <textarea {...textarea} {...control} className="m_8fb7ebe7 mantine-Input-input mantine-Textarea-input" />}
    </FieldFrame>
  );
}

export type LightSelectProps = FieldFrameProps &
  Omit<InputHTMLAttributes<HTMLSelectElement>, 'size' | 'children'> & { children: ReactNode; rightSection?: ReactNode };

/** Mantine's Input as a native <select> in its frame (what NativeSelect renders), light. */
export function LightSelect({ label, description, error, withAsterisk, mt, maw, rightSection, children, ...select }: LightSelectProps) {
  return (
    <FieldFrame
      label={label}
      description={description}
      error={error}
      withAsterisk={withAsterisk}
      mt={mt}
      maw={maw}
      rightSection={rightSection}
      frameStyle={{ '--input-left-section-pointer-events': 'none', '--input-right-section-pointer-events': 'none' }}
    >
      {(control) => (
        <select {...select} {...control} className="m_8fb7ebe7 mantine-Input-input">
          {children}
        </select>
      )}
    </FieldFrame>
  );
}

/** Mantine's group frame for checkboxes and radios: a label, then the group, then its error. */
function GroupFrame({ kind, role, label, description, error, mt, children }: FieldFrameProps & { kind: 'CheckboxGroup' | 'RadioGroup'; role: 'group' | 'radiogroup'; children: ReactNode }) {
  const id = useId();
  const hasError = hasMessage(error);
  return (
    <div data-error={!!error || undefined} className={`m_46b77525 mantine-InputWrapper-root mantine-${kind}-root`} style={mt ? { marginTop: SPACING[mt] } : undefined}>
      {label ? (
        <div id={`${id}-label`} className={`m_8fdc1311 mantine-InputWrapper-label mantine-${kind}-label`}>
          {label}
        </div>
      ) : null}
      {description ? (
        <p id={`${id}-description`} className={`m_fe47ce59 mantine-InputWrapper-description mantine-${kind}-description`}>
          {description}
        </p>
      ) : null}
      <div role={role} aria-labelledby={label ? `${id}-label` : undefined} aria-describedby={describedByOf(id, error, description)}>
        {children}
      </div>
      {hasError ? (
        <p id={`${id}-error`} className={`m_8f816625 mantine-InputWrapper-error mantine-${kind}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

const CHECK_ICON = 'M4 4.586L1.707 2.293A1 1 0 1 0 .293 3.707l3 3a.997.997 0 0 0 1.414 0l5-5A1 1 0 1 0 8.293.293L4 4.586z';
const CHECKBOX_VARS = { '--checkbox-color': 'var(--mantine-color-indigo-filled)', '--checkbox-icon-color': 'var(--mantine-color-white)' } as React.CSSProperties;
const RADIO_VARS = { '--radio-color': 'var(--mantine-color-indigo-filled)', '--radio-icon-color': 'var(--mantine-color-white)' } as React.CSSProperties;

type CheckboxGroupContext = { value: string[]; toggle: (value: string, checked: boolean) => void };
const CheckboxGroupContext = createContext<CheckboxGroupContext | null>(null);

export type LightCheckboxProps = {
  label: ReactNode;
  /** In a LightCheckboxGroup: this box's value in the group's list. */
  value?: string;
  checked?: boolean;
  onChange?: (event: ChangeEvent<HTMLInputElement>) => void;
  error?: ReactNode;
  onFocus?: (event: React.FocusEvent<HTMLInputElement>) => void;
  onBlur?: (event: React.FocusEvent<HTMLInputElement>) => void;
};

/** Mantine's Checkbox (filled, label on the right), light; inside a LightCheckboxGroup it is one of its values. */
export function LightCheckbox({ label, value, checked, onChange, error, onFocus, onBlur }: LightCheckboxProps) {
  const id = useId();
  const group = useContext(CheckboxGroupContext);
  const isChecked = group && value !== undefined ? group.value.includes(value) : !!checked;
  return (
    <div data-variant="filled" data-label-position="right" className="m_bf2d988c mantine-Checkbox-root m_5f75b09e mantine-Checkbox-root" style={CHECKBOX_VARS}>
      <div className="m_5f6e695e mantine-Checkbox-body">
        <div data-label-position="right" className="m_26062bec mantine-Checkbox-inner">
          <input
            id={id}
            type="checkbox"
            className="mantine-focus-auto m_26063560 mantine-Checkbox-input"
            value={value}
            checked={isChecked}
            data-error={!!error || undefined}
            aria-invalid={error ? true : undefined}
            aria-describedby={hasMessage(error) ? `${id}-error` : undefined}
            onFocus={onFocus}
            onBlur={onBlur}
            onChange={(event) => {
              if (group && value !== undefined) group.toggle(value, event.currentTarget.checked);
              onChange?.(event);
            }}
          />
          <svg viewBox="0 0 10 7" fill="none" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" className="m_bf295423 mantine-Checkbox-icon">
            <path d={CHECK_ICON} fill="currentColor" fillRule="evenodd" clipRule="evenodd" />
          </svg>
        </div>
        <div className="m_d3ea56bb mantine-Checkbox-labelWrapper">
          <label htmlFor={id} className="m_8ee546b8 mantine-Checkbox-label">
            {label}
          </label>
          {hasMessage(error) ? (
            <p id={`${id}-error`} className="m_8e8a99cc mantine-Checkbox-error m_8f816625 mantine-InputWrapper-error">
              {error}
            </p>
          ) : null}
        </div>
      </div>
    </div>
  );
}

export type LightCheckboxGroupProps = FieldFrameProps & {
  value: string[];
  onChange: (value: string[]) => void;
  children: ReactNode;
};

/** Mantine's Checkbox.Group, light: the LightCheckboxes inside are its values. */
export function LightCheckboxGroup({ value, onChange, children, ...frame }: LightCheckboxGroupProps) {
  const toggle = (item: string, checked: boolean) => onChange(checked ? [...value.filter((v) => v !== item), item] : value.filter((v) => v !== item));
  return (
    <CheckboxGroupContext.Provider value={{ value, toggle }}>
      <GroupFrame kind="CheckboxGroup" role="group" {...frame}>
        {children}
      </GroupFrame>
    </CheckboxGroupContext.Provider>
  );
}

type RadioGroupContext = { name: string; value: string; onChange: (value: string) => void };
const RadioGroupContext = createContext<RadioGroupContext | null>(null);

export type LightRadioGroupProps = FieldFrameProps & {
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
};

/** Mantine's Radio.Group, light: the LightRadios inside share its name and value. */
export function LightRadioGroup({ value, onChange, children, ...frame }: LightRadioGroupProps) {
  const name = useId();
  return (
    <RadioGroupContext.Provider value={{ name, value, onChange }}>
      <GroupFrame kind="RadioGroup" role="radiogroup" {...frame}>
        {children}
      </GroupFrame>
    </RadioGroupContext.Provider>
  );
}

/** Mantine's Radio (label on the right), light; only inside a LightRadioGroup. */
export function LightRadio({ value, label }: { value: string; label: ReactNode }) {
  const id = useId();
  const group = useContext(RadioGroupContext);
  const checked = group?.value === value;
  return (
    <div data-label-position="right" data-checked={checked || undefined} className="m_f3f1af94 mantine-Radio-root m_5f75b09e mantine-Radio-root" style={RADIO_VARS}>
      <div className="m_5f6e695e mantine-Radio-body">
        <div data-label-position="right" className="m_89c4f5e4 mantine-Radio-inner">
          <input
            name={group?.name}
            id={id}
            type="radio"
            className="mantine-focus-auto m_8a3dbb89 mantine-Radio-radio"
            value={value}
            checked={checked}
            onChange={(event) => {
              if (event.currentTarget.checked) group?.onChange(value);
            }}
          />
          <svg xmlns="http://www.w3.org/2000/svg" fill="none" viewBox="0 0 5 5" aria-hidden="true" className="m_f3ed6b2b mantine-Radio-icon">
            <circle cx="2.5" cy="2.5" r="2.5" fill="currentColor" />
          </svg>
        </div>
        <div className="m_d3ea56bb mantine-Radio-labelWrapper">
          <label htmlFor={id} className="m_8ee546b8 mantine-Radio-label">
            {label}
          </label>
        </div>
      </div>
    </div>
  );
}

/** Mantine's SimpleGrid with one column, two from a breakpoint ('sm' 48em, 'xs' 36em), light. */
export function LightGrid({ twoFrom, spacing = 'md', mt, children }: { twoFrom: 'xs' | 'sm'; spacing?: Spacing; mt?: string; children: ReactNode }) {
  return (
    <div className="bw-grid" data-two-from={twoFrom} style={{ '--bw-grid-gap': SPACING[spacing], marginTop: mt } as React.CSSProperties}>
      {children}
    </div>
  );
}
