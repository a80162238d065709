/**
 * A calendar feed's URL is a secret more often than not (Google's and Outlook's "secret address in
 * iCal format" grant read access to the whole calendar): it is stored sealed under this purpose and
 * shown only as `displayedFeedUrl` gives it.
 */
export const CALENDAR_FEED_URL_PURPOSE = 'calendar feed urls';

/** Scheme and host, and the path's first segment when there is more: enough to tell feeds apart, not to read one. */
export function displayedFeedUrl(url: URL): string {
  const segments = url.pathname.split('/').filter(Boolean);
  const path = segments.length === 0 ? '' : segments.length === 1 ? '/…' : `/${segments[0]}/…`;
  return `${url.protocol}//${url.host}${path}`;
}
