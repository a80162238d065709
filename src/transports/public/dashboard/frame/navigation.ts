/**
 * The dashboard's primary navigation (DESIGN §10 fixes the names). An area is offered to a role that
 * can read it; the server refuses what a role may not do whatever is offered.
 */
export interface NavigationItem {
  label: string;
  href: string;
  /** The scope a person needs to see the area at all. */
  scope: string;
}

export const NAVIGATION: readonly NavigationItem[] = [
  { label: 'Videos', href: '/app/videos', scope: 'videos:read' },
  { label: 'Leads', href: '/app/leads', scope: 'leads:read' },
  { label: 'Revenue', href: '/app/revenue', scope: 'outcomes:read' },
  { label: 'Routes', href: '/app/routes', scope: 'routes:read' },
  { label: 'Scheduling', href: '/app/scheduling', scope: 'workspace:read' },
  { label: 'Channel', href: '/app/channel', scope: 'workspace:read' },
  { label: 'Settings', href: '/app/settings', scope: 'workspace:read' },
];

/** The item a path belongs to: the longest href that is the path or a folder above it. */
export function currentItem(path: string): NavigationItem | undefined {
  const bare = path.split('?')[0] ?? path;
  return NAVIGATION.filter((item) => bare === item.href || bare.startsWith(`${item.href}/`)).sort(
    (a, b) => b.href.length - a.href.length,
  )[0];
}
