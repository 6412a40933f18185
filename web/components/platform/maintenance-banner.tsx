import './maintenance-banner.css';
import { Group, Text } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { usePublicPlatformConfig } from './public-platform-config';

// The platform's maintenance banner (set on /superadmin/settings): shown at the top of every screen
// — public pages, portal, organization, dock and super admin — to everyone while it is set. Rendered
// once, at the root of the app (web/app/providers.tsx).

/** Keeps the banner's height in a CSS variable, for the fixed headers to move down by. */
function useBannerHeight(element: HTMLElement | null) {
  useEffect(() => {
    if (!element) return;
    const root = document.documentElement;
    const apply = () => root.style.setProperty('--maintenance-banner-height', `${element.offsetHeight}px`);
    apply();
    root.setAttribute('data-maintenance-banner', '');
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(apply);
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.removeAttribute('data-maintenance-banner');
      root.style.removeProperty('--maintenance-banner-height');
    };
  }, [element]);
}

function Banner({ message }: { message: string }) {
  const [element, setElement] = useState<HTMLElement | null>(null);
  useBannerHeight(element);
  return (
    <section ref={setElement} className="maintenance-banner" aria-label="Maintenance notice" data-testid="maintenance-banner">
      <Group gap="sm" wrap="nowrap" justify="center" px="md" py={8} maw={1200} mx="auto">
        <IconTool size={18} aria-hidden style={{ flexShrink: 0 }} />
        <Text size="sm" fw={500} role="status" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
          {message}
        </Text>
      </Group>
    </section>
  );
}

export function MaintenanceBanner() {
  const { data } = usePublicPlatformConfig();
  const message = data?.maintenanceBanner?.trim();
  return message ? <Banner message={message} /> : null;
}
