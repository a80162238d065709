/**
 * Plans and what they include (DESIGN §4). The pipeline checks an operation's entitlement; quotas are
 * checked by the operations that create the counted things.
 */

export const PLAN_NAMES = ['free', 'pro', 'business'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export const ENTITLEMENTS = ['interactive_routes', 'webhooks', 'scheduling'] as const;
export type Entitlement = (typeof ENTITLEMENTS)[number];

export interface Plan {
  requestsPerMinute: number;
  entitlements: ReadonlySet<Entitlement>;
  /** `videos.max`: null means no limit. */
  videosMax: number | null;
}

export const PLANS: Record<PlanName, Plan> = {
  free: { requestsPerMinute: 120, entitlements: new Set(), videosMax: 25 },
  pro: { requestsPerMinute: 600, entitlements: new Set(ENTITLEMENTS), videosMax: 1000 },
  business: { requestsPerMinute: 1200, entitlements: new Set(ENTITLEMENTS), videosMax: null },
};
