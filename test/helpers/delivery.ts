// A stored webhook delivery for store tests: numbered, for one appointment, received at a time.
export const testDelivery = (n: number, key: string, receivedAt: number) => ({
  dedupeKey: `d${n}`,
  appointmentKey: key,
  event: 'appointment.updated',
  body: `{"n":${n}}`,
  receivedAt,
});
