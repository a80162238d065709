/**
 * The Kysely view of the database: one row type per table, kept by area in this folder, composed
 * here into `Database`. Migrations in ../migrations are the truth; these types follow them. A new
 * table goes into its area's file (or a new one) and into `Database` below.
 */
import type { Insertable, Selectable } from 'kysely';
import type { OAuthClientsTable, OAuthCodesTable, OAuthGrantsTable, OAuthRefreshTokensTable } from './assistants.ts';
import type { AuditEventsTable } from './audit.ts';
import type { ChannelItemOpensTable, ChannelItemsTable, ChannelsTable, ChannelViewsTable, WorkspaceSlugsTable } from './channel.ts';
import type { EmailOutboxTable } from './email.ts';
import type { LeadActivitiesTable, LeadsTable, LeadViewersTable, OutcomesTable } from './leads.ts';
import type {
  InvitationsTable,
  MembersTable,
  OneTimeTokensTable,
  PasskeysTable,
  SessionsTable,
  SignInFailuresTable,
  UsersTable,
} from './people.ts';
import type {
  RouteChoiceCountsTable,
  RouteChoicesTable,
  RoutePathCountsTable,
  RouteStepCountsTable,
  RouteStepsTable,
  RoutesTable,
  RouteVisitStepsTable,
  RouteVisitsTable,
} from './routes.ts';
import type { BookingsTable, CalendarBusyTimesTable, CalendarFeedsTable, EventTypesTable } from './scheduling.ts';
import type { EventsTable, IdempotencyKeysTable, JobsTable, ServiceSettingsTable } from './service.ts';
import type {
  FoldersTable,
  TranscriptSegmentsTable,
  VideoRenditionsTable,
  VideosTable,
  VideoTranscriptsTable,
  VideoUploadsTable,
} from './videos.ts';
import type {
  VideoDailyStatsTable,
  VideoHeatmapsTable,
  VideoStatsTable,
  ViewingBatchesTable,
  ViewingFoldTable,
  ViewingSessionsTable,
  WorkspaceDailyRevenueTable,
  WorkspaceDailyStatsTable,
} from './viewing.ts';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from './webhooks.ts';
import type { CredentialsTable, WorkspacesTable } from './workspaces.ts';

export type * from './assistants.ts';
export type * from './audit.ts';
export type * from './channel.ts';
export type * from './email.ts';
export type * from './leads.ts';
export type * from './people.ts';
export type * from './routes.ts';
export type * from './scheduling.ts';
export type * from './service.ts';
export type * from './videos.ts';
export type * from './viewing.ts';
export type * from './webhooks.ts';
export type * from './workspaces.ts';

export interface Database {
  workspaces: WorkspacesTable;
  workspace_slugs: WorkspaceSlugsTable;
  channels: ChannelsTable;
  channel_items: ChannelItemsTable;
  channel_views: ChannelViewsTable;
  channel_item_opens: ChannelItemOpensTable;
  credentials: CredentialsTable;
  users: UsersTable;
  members: MembersTable;
  invitations: InvitationsTable;
  sessions: SessionsTable;
  one_time_tokens: OneTimeTokensTable;
  passkeys: PasskeysTable;
  sign_in_failures: SignInFailuresTable;
  audit_events: AuditEventsTable;
  folders: FoldersTable;
  videos: VideosTable;
  video_renditions: VideoRenditionsTable;
  video_stats: VideoStatsTable;
  idempotency_keys: IdempotencyKeysTable;
  events: EventsTable;
  service_settings: ServiceSettingsTable;
  jobs: JobsTable;
  video_uploads: VideoUploadsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  video_transcripts: VideoTranscriptsTable;
  transcript_segments: TranscriptSegmentsTable;
  viewing_sessions: ViewingSessionsTable;
  viewing_batches: ViewingBatchesTable;
  video_daily_stats: VideoDailyStatsTable;
  video_heatmaps: VideoHeatmapsTable;
  viewing_fold: ViewingFoldTable;
  workspace_daily_stats: WorkspaceDailyStatsTable;
  workspace_daily_revenue: WorkspaceDailyRevenueTable;
  leads: LeadsTable;
  lead_viewers: LeadViewersTable;
  lead_activities: LeadActivitiesTable;
  outcomes: OutcomesTable;
  routes: RoutesTable;
  route_steps: RouteStepsTable;
  route_choices: RouteChoicesTable;
  route_visits: RouteVisitsTable;
  route_visit_steps: RouteVisitStepsTable;
  event_types: EventTypesTable;
  bookings: BookingsTable;
  calendar_feeds: CalendarFeedsTable;
  calendar_busy_times: CalendarBusyTimesTable;
  route_step_counts: RouteStepCountsTable;
  route_choice_counts: RouteChoiceCountsTable;
  route_path_counts: RoutePathCountsTable;
  email_outbox: EmailOutboxTable;
  oauth_clients: OAuthClientsTable;
  oauth_codes: OAuthCodesTable;
  oauth_grants: OAuthGrantsTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
}

export type WorkspaceRow = Selectable<WorkspacesTable>;
export type CredentialRow = Selectable<CredentialsTable>;
export type FolderRow = Selectable<FoldersTable>;
export type VideoRow = Selectable<VideosTable>;
export type NewVideo = Insertable<VideosTable>;
export type JobRow = Selectable<JobsTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewWebhookDelivery = Insertable<WebhookDeliveriesTable>;
export type LeadRow = Selectable<LeadsTable>;
export type OutcomeRow = Selectable<OutcomesTable>;
export type NewOutcome = Insertable<OutcomesTable>;
export type RouteRow = Selectable<RoutesTable>;
export type RouteStepRow = Selectable<RouteStepsTable>;
export type RouteChoiceRow = Selectable<RouteChoicesTable>;
export type EventTypeRow = Selectable<EventTypesTable>;
export type NewEventType = Insertable<EventTypesTable>;
export type BookingRow = Selectable<BookingsTable>;
export type NewBooking = Insertable<BookingsTable>;
export type EmailOutboxRow = Selectable<EmailOutboxTable>;
export type UserRow = Selectable<UsersTable>;
export type MemberRow = Selectable<MembersTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type SessionRow = Selectable<SessionsTable>;
export type PasskeyRow = Selectable<PasskeysTable>;
