// What calbridge needs from Google Calendar, in its own terms. The adapter (calendar-adapter.ts)
// implements it with googleapis; google-target.ts puts the calendar target port (core/mirror) on it.
import type { EventBody } from '../core/mirror/desired-event.ts';

/** An event as read back from Google. */
export interface GoogleEvent {
  id: string;
  /** confirmed | tentative | cancelled (a deleted event's tombstone) */
  status: string;
  etag: string;
  /** Epoch ms; null for a tombstone that carries no times, or an all-day event. */
  start: number | null;
  end: number | null;
  summary: string | null;
  /** undefined where a caller built the event without it (then not compared). */
  description?: string | null;
  /** RRULE/RDATE: a person made it repeat (the booking service cannot take a series). */
  recurring?: boolean;
  privateProperties: Record<string, string>;
  sequence: number | null;
  updated: number | null;
}

export interface ListOptions {
  syncToken?: string;
  pageToken?: string;
  showDeleted?: boolean;
  maxResults?: number;
  timeMin?: number;
  timeMax?: number;
}

export interface EventPage {
  events: GoogleEvent[];
  nextPageToken?: string;
  nextSyncToken?: string;
}

export interface WatchRequest {
  channelId: string;
  address: string;
  token: string;
  /** Epoch ms; Google may shorten it. */
  expiration?: number;
}

export interface CalendarApi {
  insert(calendarId: string, eventId: string, body: EventBody): Promise<GoogleEvent>;
  get(calendarId: string, eventId: string): Promise<GoogleEvent>;
  /** Full update; with an etag it is conditional (412 => precondition_failed). */
  update(calendarId: string, eventId: string, body: EventBody, etag?: string): Promise<GoogleEvent>;
  /** With an etag it is conditional too: only that version is deleted (412 => precondition_failed). */
  delete(calendarId: string, eventId: string, etag?: string): Promise<void>;
  list(calendarId: string, options: ListOptions): Promise<EventPage>;
  watch(calendarId: string, request: WatchRequest): Promise<{ resourceId: string; expiration: number | null }>;
  stopChannel(channelId: string, resourceId: string): Promise<void>;
}
