import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// What jsdom lacks and Mantine uses (Mantine's own test setup does the same): media queries,
// element resize observation, scrolling an element into view, and getComputedStyle's second
// argument (pseudo-elements), which jsdom does not implement.

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList,
});

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver = ResizeObserverStub;

window.HTMLElement.prototype.scrollIntoView = () => undefined;

const { getComputedStyle } = window;
window.getComputedStyle = (element: Element) => getComputedStyle(element);

// Role queries skip the visibility check (a computed style per element, most of a query's time in
// a large form): Mantine's test mode renders no transitions, and what is not shown is not rendered.
// findBy…/waitFor wait up to 5 s, not 1 s, for a 2-core CI machine under load; a passing wait
// still ends as soon as its condition holds.
configure({ defaultHidden: true, asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});
