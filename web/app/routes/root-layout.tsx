import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { PageLoader } from '../../components/ui/page-loader';
import { NavigationProgress } from './navigation-progress';

/** The root of every route: lazy screens suspend into the spec's 'Loading...' indicator. */
export function RootLayout() {
  return (
    <>
      <NavigationProgress />
      <Suspense fallback={<PageLoader minHeight="100vh" />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
    </>
  );
}
