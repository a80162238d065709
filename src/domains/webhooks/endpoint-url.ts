/**
 * Whether a URL may be registered as a webhook endpoint: it must pass the SSRF guard now (resolved,
 * every address allowed), as every delivery will again, and be https, unless it reaches only hosts
 * the operator allow-listed (CUEPOINT_ALLOW_PRIVATE_NETWORKS): a receiver on a private network or on
 * loopback, in development, may speak plain http.
 */
import type { OutboundSettings } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { classifyAddress } from '../../net/address-policy.ts';
import { checkUrl } from '../../net/check-url.ts';
import { OutboundRequestError } from '../../net/outbound-error.ts';

const CHECK_TIMEOUT_MS = 5000;

/** The URL as it will be stored (normalised by the WHATWG parser), or invalid_request on `url`. */
export async function checkEndpointUrl(text: string, outbound: OutboundSettings): Promise<string> {
  let checked: Awaited<ReturnType<typeof checkUrl>>;
  try {
    checked = await checkUrl(text, {
      allowPrivateNetworks: outbound.allowPrivateNetworks,
      lookup: outbound.lookup,
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
  } catch (error) {
    const problem = error instanceof OutboundRequestError ? error.message : 'is not a URL that can be delivered to';
    throw AppError.invalid([{ field: 'url', problem }]);
  }
  const { url, addresses } = checked;
  if (url.protocol === 'http:' && addresses.some(({ address }) => classifyAddress(address) === 'public')) {
    throw AppError.invalid([
      {
        field: 'url',
        problem: 'must use https: payloads carry workspace data, and plain http is only accepted for allow-listed private hosts',
      },
    ]);
  }
  if (url.hash) throw AppError.invalid([{ field: 'url', problem: 'must not contain a #fragment, which is never sent to the server' }]);
  return url.href;
}
