import { Checkbox, Radio, TextInput } from '@mantine/core';
import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { LightCheckbox, LightCheckboxGroup, LightRadio, LightRadioGroup, LightTextInput, LightTextarea } from './light-fields';
import { SelectField } from './select-field';

// The public form's light fields: what a haulier (and a screen reader) gets from them is what
// Mantine's fields gave — the label names the box, the message under it is announced with it,
// the groups keep their values — and they are drawn with the same classes.

describe('light fields', () => {
  it('names a text box by its label and announces its error and description with it', async () => {
    const { user } = renderWithProviders(<LightTextInput label="Company Name" withAsterisk description="As on the invoice" error="Company Name is required" defaultValue="" />);
    const box = screen.getByRole('textbox', { name: /Company Name/ });
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription('Company Name is required As on the invoice');
    await user.type(box, 'Acme');
    expect(box).toHaveValue('Acme');
  });

  it('draws a text box as Mantine’s TextInput does, error and all', () => {
    const { container } = renderWithProviders(
      <>
        <div data-testid="light">
          <LightTextInput label="Phone" error="Bad" withAsterisk />
        </div>
        <div data-testid="mantine">
          <TextInput label="Phone" error="Bad" withAsterisk />
        </div>
      </>,
    );
    const shape = (root: Element) =>
      [...root.querySelectorAll('*')].map((el) => `${el.tagName}.${[...el.classList].sort().join('.')}[${el.getAttribute('data-error') ?? ''}]`).join(' ');
    const [light, mantine] = ['light', 'mantine'].map((id) => container.querySelector(`[data-testid="${id}"]`)!);
    expect(shape(light!)).toBe(shape(mantine!));
  });

  it('has no error state without an error, and a text area works the same way', () => {
    renderWithProviders(<LightTextarea label="Notes" rows={3} />);
    const area = screen.getByRole('textbox', { name: 'Notes' });
    expect(area.tagName).toBe('TEXTAREA');
    expect(area).toHaveAttribute('aria-invalid', 'false');
    expect(area).not.toHaveAccessibleDescription();
  });

  it('keeps a checkbox group’s values as a list, in the order they were ticked', async () => {
    function Needs() {
      const [value, setValue] = useState<string[]>(['reefer']);
      return (
        <>
          <LightCheckboxGroup label="Special Access Needs" value={value} onChange={setValue} error="Pick one">
            <LightCheckbox value="oversize" label="Oversize Load" />
            <LightCheckbox value="reefer" label="Refrigerated" />
          </LightCheckboxGroup>
          <output>{value.join(',')}</output>
        </>
      );
    }
    const { user } = renderWithProviders(<Needs />);
    expect(screen.getByRole('group', { name: 'Special Access Needs' })).toHaveAccessibleDescription('Pick one');
    expect(screen.getByRole('checkbox', { name: 'Refrigerated' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Oversize Load' }));
    expect(screen.getByRole('status')).toHaveTextContent('reefer,oversize');
    await user.click(screen.getByRole('checkbox', { name: 'Refrigerated' }));
    expect(screen.getByRole('status')).toHaveTextContent(/^oversize$/);
  });

  it('announces a single checkbox’s error and hands its change on', async () => {
    function Terms() {
      const [checked, setChecked] = useState(false);
      return <LightCheckbox label="I accept" checked={checked} onChange={(event) => setChecked(event.currentTarget.checked)} error={checked ? undefined : 'Terms and conditions must be accepted'} />;
    }
    const { user } = renderWithProviders(<Terms />);
    const box = screen.getByRole('checkbox', { name: 'I accept' });
    expect(box).toHaveAccessibleDescription('Terms and conditions must be accepted');
    await user.click(box);
    expect(box).toBeChecked();
    expect(screen.queryByText('Terms and conditions must be accepted')).toBeNull();
  });

  it('lets one radio of a group be chosen, by click or arrow keys', async () => {
    function Kind() {
      const [value, setValue] = useState('delivery');
      return (
        <LightRadioGroup label="Booking Type" value={value} onChange={setValue}>
          <LightRadio value="delivery" label="Delivery" />
          <LightRadio value="pickup" label="Pickup" />
        </LightRadioGroup>
      );
    }
    const { user } = renderWithProviders(<Kind />);
    expect(screen.getByRole('radiogroup', { name: 'Booking Type' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Delivery' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Pickup' }));
    expect(screen.getByRole('radio', { name: 'Pickup' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Delivery' })).not.toBeChecked();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('radio', { name: 'Delivery' })).toBeChecked();
  });

  it('draws checkboxes and radios with Mantine’s classes', () => {
    const { container } = renderWithProviders(
      <>
        <div data-testid="light">
          <LightCheckbox label="A" />
          <LightRadioGroup label="R" value="a" onChange={() => undefined}>
            <LightRadio value="a" label="A" />
          </LightRadioGroup>
        </div>
        <div data-testid="mantine">
          <Checkbox label="A" />
          <Radio.Group label="R" value="a">
            <Radio value="a" label="A" />
          </Radio.Group>
        </div>
      </>,
    );
    const classes = (root: Element) => [...root.querySelectorAll('*')].map((el) => `${el.tagName}.${[...el.classList].sort().join('.')}`).join(' ');
    const [light, mantine] = ['light', 'mantine'].map((id) => container.querySelector(`[data-testid="${id}"]`)!);
    expect(classes(light!)).toBe(classes(mantine!));
  });

  it('shows a select’s options and its error', () => {
    renderWithProviders(<SelectField label="Vehicle Type" withAsterisk error="Vehicle Type is required" data={[{ value: '', label: 'Select vehicle type' }, { value: 'van', label: 'Van' }]} value="" onChange={() => undefined} />);
    const select = screen.getByRole('combobox', { name: /Vehicle Type/ });
    expect(select).toHaveAccessibleDescription('Vehicle Type is required');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Select vehicle type', 'Van']);
  });
});
