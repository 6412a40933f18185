// Every Mantine component's stylesheet, the charts' and the staff tables': loaded with every screen
// except the booking request form (router.tsx), whose few components' styles come with the app
// (providers.tsx, issue 25). All Mantine styles are in the `mantine` cascade layer, so the app's own
// (unlayered) rules win over them whichever file arrives first.
import '@mantine/core/styles.layer.css';
import '@mantine/charts/styles.layer.css';
import './tables.css';

export const FULL_STYLES_LOADED = true;
