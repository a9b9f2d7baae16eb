// The one filter engine, table by table: poll scope and feed filters both judge through it.
import { describe, expect, it } from 'vitest';
import { factsOf, judge, type AppointmentFilters, type FilterFacts, type FilterVerdict } from './appointment-filter.ts';
import { testAppointment } from '../../test/helpers/appointment.ts';

const facts: FilterFacts = {
  status: 'CONFIRMED',
  calendarKey: 'cal-a',
  clientKey: 'client-1',
  personKey: 'p1',
  serviceKeys: ['svc-clean', 'svc-xray'],
  tagKeys: ['tag-new'],
  ownerUser: 'Owner@Example.com',
};

const match: FilterVerdict = { kind: 'match' };

describe('judge: which filters hold', () => {
  it.each<[string, AppointmentFilters, FilterVerdict['kind']]>([
    ['no filters', {}, 'match'],
    ['calendar_key as a string', { calendar_key: 'cal-a' }, 'match'],
    ['another calendar', { calendar_key: 'cal-b' }, 'mismatch'],
    ['a list: any of its values', { calendar_key: ['cal-b', 'cal-a'] }, 'match'],
    ['a list without ours', { calendar_key: ['cal-b', 'cal-c'] }, 'mismatch'],
    ['client_key', { client_key: 'client-1' }, 'match'],
    ['another client', { client_key: 'client-2' }, 'mismatch'],
    ['person_key list', { person_key: ['p1', 'p2'] }, 'match'],
    ['another person', { person_key: 'p9' }, 'mismatch'],
    ['status list', { status: ['PENDING', 'CONFIRMED'] }, 'match'],
    ['another status', { status: 'PENDING' }, 'mismatch'],
    ['owner_user', { owner_user: 'owner@example.com' }, 'match'],
    ['another owner', { owner_user: 'someone@example.com' }, 'mismatch'],
    ['service_keys: one shared key is enough', { service_keys: ['svc-xray', 'svc-other'] }, 'match'],
    ['service_keys: none shared', { service_keys: ['svc-other'] }, 'mismatch'],
    ['tag_keys', { tag_keys: ['tag-new'] }, 'match'],
    ['tag_keys: none shared', { tag_keys: ['tag-vip'] }, 'mismatch'],
    ['every filter must hold', { calendar_key: 'cal-a', client_key: 'client-2' }, 'mismatch'],
  ])('%s → %s', (_name, filters, kind) => {
    expect(judge(facts, filters).kind).toBe(kind);
  });
});

describe('judge: the case rule (case and surrounding spaces never matter)', () => {
  it.each<[string, AppointmentFilters]>([
    ['a status in lower case', { status: 'confirmed' }],
    ['a key in another case', { calendar_key: 'CAL-A' }],
    ['an owner e-mail in another case', { owner_user: 'OWNER@example.COM' }],
    ['a value with spaces around it', { client_key: '  client-1 ' }],
    ['a list value in another case', { tag_keys: ['TAG-NEW'] }],
  ])('%s matches', (_name, filters) => {
    expect(judge(facts, filters)).toEqual(match);
  });

  it('compares the record side the same way', () => {
    expect(judge({ ...facts, calendarKey: ' CAL-A ' }, { calendar_key: 'cal-a' })).toEqual(match);
  });
});

describe('judge: the unset rule (an empty value is no filter)', () => {
  it.each<[string, AppointmentFilters]>([
    ['an empty string', { calendar_key: '' }],
    ['a blank string', { person_key: '   ' }],
    ['an empty list', { tag_keys: [] }],
    ['a list of empty strings', { service_keys: ['', ' '] }],
    ['undefined', { status: undefined }],
  ])('%s', (_name, filters) => {
    expect(judge({ ...facts, calendarKey: null, personKey: null, serviceKeys: [], tagKeys: [] }, filters)).toEqual(match);
  });
});

describe('judge: the null rule (a field the record does not show is unknown)', () => {
  it.each<[string, Partial<FilterFacts>, AppointmentFilters, FilterVerdict]>([
    ['no calendar key', { calendarKey: null }, { calendar_key: 'cal-a' }, { kind: 'unknown', filter: 'calendar_key' }],
    ['a blank client key', { clientKey: ' ' }, { client_key: 'client-1' }, { kind: 'unknown', filter: 'client_key' }],
    ['no services', { serviceKeys: [] }, { service_keys: ['svc-clean'] }, { kind: 'unknown', filter: 'service_keys' }],
    ['no tags', { tagKeys: [] }, { tag_keys: ['tag-new'] }, { kind: 'unknown', filter: 'tag_keys' }],
    [
      'unknown is reported for the first such filter',
      { personKey: null, ownerUser: null },
      { owner_user: 'x', person_key: 'p1' },
      { kind: 'unknown', filter: 'person_key' },
    ],
    [
      'a contradiction outweighs an unknown',
      { calendarKey: null },
      { calendar_key: 'cal-a', client_key: 'client-2' },
      { kind: 'mismatch', filter: 'client_key', shown: ['client-1'], wanted: ['client-2'] },
    ],
    ['an unset filter on a missing field is no unknown', { calendarKey: null }, { calendar_key: '' }, match],
  ])('%s', (_name, change, filters, verdict) => {
    expect(judge({ ...facts, ...change }, filters)).toEqual(verdict);
  });
});

describe('judge: what a mismatch names', () => {
  it('the first contradicted filter in a fixed order, what the record shows and what was wanted (trimmed, as given)', () => {
    expect(judge(facts, { tag_keys: ['tag-vip'], status: [' PENDING ', 'NO_SHOW'] })).toEqual({
      kind: 'mismatch',
      filter: 'status',
      shown: ['CONFIRMED'],
      wanted: ['PENDING', 'NO_SHOW'],
    });
  });
});

describe('factsOf', () => {
  it('reads what filters need from an appointment', () => {
    const a = testAppointment({
      services: [
        { serviceKey: 's-1', name: 'Cleaning' },
        { serviceKey: 's-2', name: null },
      ],
      tagKeys: ['t-1'],
      ownerUser: 'ana@example.com',
    });
    expect(factsOf(a)).toEqual({
      status: a.status,
      calendarKey: a.calendar.calendarKey,
      clientKey: a.clientKey,
      personKey: a.person.personKey,
      serviceKeys: ['s-1', 's-2'],
      tagKeys: ['t-1'],
      ownerUser: 'ana@example.com',
    });
  });
});
