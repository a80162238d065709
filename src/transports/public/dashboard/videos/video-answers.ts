/**
 * The shapes of the answers the video page reads, declared here as the page sees them (the dashboard
 * is a client of the catalog: it imports no domain code, only what the API documents).
 */

export interface VideoAnswer {
  video_id: string;
  title: string;
  description: string;
  status: 'waiting_upload' | 'processing' | 'ready' | 'failed';
  archived: boolean;
  tags: string[];
  folder_name: string | null;
  duration_seconds: number | null;
  created_at: string;
  file_name: string | null;
  file_size: number | null;
  width: number | null;
  height: number | null;
  failure_reason: string | null;
  poster_url: string | null;
  playback_url: string | null;
  watch_url: string | null;
  embed_url: string | null;
  transcript: { source: string; language: string | null; segments: number; captions_url: string | null; updated_at: string } | null;
  stats: {
    views: number;
    unique_viewers: number;
    watch_time_seconds: number;
    average_engagement: number;
    completions: number;
    completion_rate: number;
    conversions: number;
    leads: number;
  };
}

export interface RetentionAnswer {
  duration_seconds: number | null;
  views: number;
  slice_seconds: number | null;
  average_percentage_viewed: number;
  curve: { slice: number; start_seconds: number; end_seconds: number; retention: number; rewatch: number }[];
  opening_drop: number;
  drop_offs: { start_seconds: number; end_seconds: number; from_retention: number; to_retention: number; fall: number }[];
  rewatch_peaks: { start_seconds: number; end_seconds: number; rewatch: number; median_rewatch: number; replay_share: number }[];
  note: string | null;
}

export interface KeyMomentsAnswer {
  views: number;
  minimum_views: number;
  moments: {
    rank: number;
    kind: 'rewatch_peak' | 'drop_off' | 'cta_clicks';
    start_seconds: number;
    end_seconds: number;
    score: number;
    reason: string;
    transcript: string | null;
  }[];
  note: string | null;
}

export interface Revenue {
  currency: string;
  value: number;
  purchased: number;
  refunded: number;
}

export interface DayFigures {
  views: number;
  unique_viewers: number;
  watch_time_seconds: number;
  average_engagement: number;
  completions: number;
  completion_rate: number;
  conversions: number;
  conversion_rate: number;
  leads: number;
  revenue: Revenue[];
}

export interface AnalyticsAnswer {
  time_zone: string;
  from_date: string;
  to_date: string;
  days: number;
  totals: DayFigures;
  daily: (DayFigures & { date: string })[];
}

export interface LeadsAnswer {
  leads: {
    lead_id: string;
    email: string;
    name: string | null;
    status: string;
    engagement_score: number;
    created_at: string;
    source_video: { video_id: string } | null;
  }[];
  pagination: { total: number; has_more: boolean };
  pii_redacted: boolean;
}

export interface TranscriptAnswer {
  source: string;
  language: string | null;
  total_chars: number;
  next_offset: number | null;
  segments: { start_seconds: number; end_seconds: number; text: string }[];
  updated_at: string;
}

/** A part of the page that could not be read: the operation's own words, or nothing when the role may not read it. */
export type Part<T> = { ok: true; body: T } | { ok: false; status: number; message: string };
