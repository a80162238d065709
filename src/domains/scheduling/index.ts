/** The scheduling domain's operations, in catalog order (DESIGN §3). */
import { createCalendarFeed } from './operations/create-calendar-feed.ts';
import { deleteCalendarFeed } from './operations/delete-calendar-feed.ts';
import { listCalendarFeeds } from './operations/list-calendar-feeds.ts';
import { refreshCalendarFeed } from './operations/refresh-calendar-feed.ts';

export const schedulingOperations = [listCalendarFeeds, createCalendarFeed, refreshCalendarFeed, deleteCalendarFeed];
