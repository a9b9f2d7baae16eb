// What the rest of calbridge needs from the booking service. The HTTP client (client.ts) implements
// it; records come back raw and are normalised by core/reader.ts.

/** The booking API's list filters (docs/reference/configuration.md, "Filters"). Datetimes are offset-less local times in booking.timezone or instants. */
export interface ListFilters {
  calendar_key?: string;
  client_key?: string;
  person_key?: string;
  status?: string;
  /** Minimum start, as epoch ms; sent as YYYY-MM-DDTHH:MM:SS in booking.timezone. */
  start_date?: number;
  /** Maximum start, as epoch ms; sent as YYYY-MM-DDTHH:MM:SS in booking.timezone. */
  end_date?: number;
  email?: string;
  phone?: string;
  name?: string;
  identification_code?: string;
  external_id?: string;
  search_code?: string;
  is_cancelled?: boolean;
  service_keys?: string[];
  tag_keys?: string[];
  owner_user?: string;
  created_at?: string;
}

export interface Webhook {
  webhook_key: string;
  url: string;
  events: string[];
}

export interface BookingApi {
  /** Every page of the listing, in order; each page is the raw `results` array. */
  listPages(filters: ListFilters): AsyncIterable<unknown[]>;
  /** The raw record; throws BookingError of kind `not_found` on 404/410 (see isNotFound). */
  getAppointment(key: string): Promise<unknown>;
  updateStatus(key: string, status: string): Promise<void>;
  /** New start as epoch ms; sent as ISO 8601 with the booking zone's offset. */
  reschedule(key: string, start: number): Promise<void>;
  cancel(key: string, options: { sendEmail: boolean }): Promise<void>;
  listWebhooks(): Promise<Webhook[]>;
  createWebhook(url: string, events: string[]): Promise<Webhook>;
  updateWebhook(key: string, url: string, events: string[]): Promise<Webhook>;
  deleteWebhook(key: string): Promise<void>;
}
