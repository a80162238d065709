/** The channel as get_channel and every channel write answer it (declared here: pages import no domain code). */

export type ItemKind = 'video' | 'route';

export interface ChannelItem {
  kind: ItemKind;
  id: string;
  title: string;
  shown: boolean;
  not_shown_reason: string | null;
  url: string;
  poster_url: string | null;
  visible: boolean;
  position: number;
  duration_seconds: number | null;
  steps: number | null;
  opens: number;
}

export interface ChannelDetail {
  slug: string;
  published: boolean;
  url: string;
  markdown_url: string;
  headline: string | null;
  dek: string | null;
  title: string;
  featured: { kind: ItemKind; id: string; title: string; shown: boolean; not_shown_reason: string | null; url: string } | null;
  items: ChannelItem[];
  showing: { kind: ItemKind; id: string; title: string; url: string }[];
  activity: { days: number; views: number; visitors: number; opens: number };
  updated_at: string | null;
}

/** What a reason means, in the words a person reads beside the item. */
export const NOT_SHOWN: Record<string, string> = {
  hidden: 'Hidden',
  archived: 'Not shown: the video is archived',
  not_ready: 'Not shown: the video is not ready',
  not_live: 'Not shown: the route is not live',
  entry_video_unavailable: 'Not shown: the route’s first video cannot play',
  plan_without_routes: 'Not shown: the plan has no routes',
};
