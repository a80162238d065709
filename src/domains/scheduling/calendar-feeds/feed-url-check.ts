/**
 * Whether a URL may be added as a calendar feed: webcal:// (and webcals://) is how calendar apps
 * hand out subscription links, and is read as https; then it must pass the SSRF guard now, resolved
 * like a webhook endpoint's, as every fetch will again. Plain http is accepted: the feed is only
 * read, and some calendar servers offer nothing else. A #fragment is never sent, so it is dropped.
 */
import type { OutboundSettings } from '../../../core/context.ts';
import { AppError } from '../../../core/errors.ts';
import { checkUrl } from '../../../net/check-url.ts';
import { OutboundRequestError } from '../../../net/outbound-error.ts';

const CHECK_TIMEOUT_MS = 5000;

/** The URL as it will be fetched (https for webcal, normalised by the WHATWG parser), or invalid_request on `url`. */
export async function checkFeedUrl(text: string, outbound: OutboundSettings): Promise<URL> {
  const written = text.trim().replace(/^webcals?:\/\//i, 'https://');
  try {
    const { url } = await checkUrl(written, {
      allowPrivateNetworks: outbound.allowPrivateNetworks,
      lookup: outbound.lookup,
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    url.hash = '';
    return url;
  } catch (error) {
    const problem = error instanceof OutboundRequestError ? error.message : 'is not a URL that can be fetched';
    throw AppError.invalid([{ field: 'url', problem }]);
  }
}
