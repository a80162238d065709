import type { Scope } from '../../../core/scopes.ts';

/** What each scope lets a key or an assistant do, said once for the checkboxes that offer it (API keys, consent). */
export const SCOPE_WORDS: Readonly<Record<string, string>> = {
  'videos:read': 'Read videos and their status',
  'videos:write': 'Upload, edit and archive videos',
  'analytics:read': 'Read views, watch time and retention',
  'outcomes:read': 'Read revenue and outcomes',
  'outcomes:write': 'Record outcomes',
  'leads:read': 'Read leads (masked as the workspace says)',
  'leads:write': 'Create and update leads',
  'transcripts:read': 'Read transcripts',
  'routes:read': 'Read routes and their analytics',
  'routes:write': 'Build and change routes',
  'channel:write': 'Edit the public channel',
  'workspace:read': 'Read the workspace, scheduling and search',
  'workspace:manage': 'Manage members, keys and webhooks',
} satisfies Record<Scope, string>;
