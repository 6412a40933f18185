import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useState, type KeyboardEvent } from 'react';

/**
 * A password input whose show/hide toggle is a real, labelled, keyboard-reachable button
 * that answers Space and Enter (Mantine hides it from the tab order by default).
 */
export function PasswordField(props: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <PasswordInput
      {...props}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleButtonProps={{
        'aria-label': visible ? 'Hide password' : 'Show password',
        tabIndex: 0,
        // Mantine toggles on Space only; a button should answer Enter too.
        onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            setVisible((v) => !v);
          }
        },
      }}
    />
  );
}
