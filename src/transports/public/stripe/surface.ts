/** The Stripe surface: the signed webhook endpoint that records payments and refunds in the ledger. */
import type { PublicSurface } from '../surface.ts';
import { registerStripeWebhooks } from './stripe-webhooks.ts';

export const stripeSurface: PublicSurface = { name: 'stripe', register: registerStripeWebhooks };
