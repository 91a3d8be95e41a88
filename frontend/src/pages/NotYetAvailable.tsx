import { ApiError } from '../api/errors';
import { ComingSoonPage, ComingSoonSection } from './ComingSoonPage';
import { COMING_SOON } from './comingSoon';

/** A list route answering 404 means this part of the back end is not there yet. */
export function isMissingRoute(error: unknown): boolean {
  return error instanceof ApiError && error.isNotFound;
}

/** The coming-soon frame, as a whole page or (embedded) inside a page that has its own header. */
export function NotYetAvailable({ area, embedded = false }: { area: keyof typeof COMING_SOON; embedded?: boolean }) {
  const info = COMING_SOON[area];
  return embedded ? <ComingSoonSection features={info.features} /> : <ComingSoonPage {...info} />;
}
