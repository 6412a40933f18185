import type { AppContext } from '../context';

/** Seeds the demo data of the README when the database has no organization yet. */
export async function seedDemoDataIfEmpty(_ctx: AppContext): Promise<boolean> {
  return false;
}
