import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
import { decideAlerts, undelivered, type AlertState, type Problem } from './decide.ts';

const MIN = 60_000;
const AUTH: Problem = { key: 'google.default.auth', sentence: 'Google refused the sign-in.' };
const API: Problem = { key: 'booking.api', sentence: 'The booking API is failing.' };

/**
 * Ticks once a minute for `minutes`, with `present(minute)` the problems seen at that minute; returns
 * every message as "minute event key".
 */
function run(minutes: number, afterMinutes: number, present: (m: number) => Problem[]): string[] {
  const clock = new ManualClock(0);
  let stored: AlertState[] = [];
  const sent: string[] = [];
  for (let m = 0; m <= minutes; m++) {
    clock.set(m * MIN);
    const d = decideAlerts({ now: clock.now(), afterMs: afterMinutes * MIN, problems: present(m), stored });
    for (const s of d.send) sent.push(`${m} ${s.event} ${s.key}`);
    stored = d.next;
  }
  return sent;
}

describe('decideAlerts', () => {
  it.each<[string, number, number, (m: number) => Problem[], string[]]>([
    ['a problem shorter than after_minutes sends nothing', 30, 15, (m) => (m >= 5 && m < 15 ? [AUTH] : []), []],
    [
      'a problem is sent once it has lasted after_minutes, and its recovery when it clears',
      60,
      15,
      (m) => (m >= 5 && m < 40 ? [AUTH] : []),
      ['20 problem google.default.auth', '40 recovered google.default.auth'],
    ],
    [
      'after_minutes 0 sends at once',
      10,
      0,
      (m) => (m >= 3 && m < 6 ? [AUTH] : []),
      ['3 problem google.default.auth', '6 recovered google.default.auth'],
    ],
    ['a lasting problem is sent only once', 300, 15, () => [AUTH], ['15 problem google.default.auth']],
    [
      'flapping every five minutes: one problem, one recovered, then quiet until the hour after the last message',
      130,
      0,
      (m) => (Math.floor(m / 5) % 2 === 0 ? [AUTH] : []),
      // problem at 0, recovered at 5; back at 10, 20, ... but quiet until 65, when it is absent; at 70 present.
      [
        '0 problem google.default.auth',
        '5 recovered google.default.auth',
        '70 problem google.default.auth',
        '75 recovered google.default.auth',
      ],
    ],
    [
      'keys are independent',
      40,
      10,
      (m) => [...(m >= 0 && m < 30 ? [AUTH] : []), ...(m >= 5 ? [API] : [])],
      ['10 problem google.default.auth', '15 problem booking.api', '30 recovered google.default.auth'],
    ],
  ])('%s', (_name, minutes, after, present, expected) => {
    expect(run(minutes, after, present)).toEqual(expected);
  });

  it('counts from the time the source says the problem began', () => {
    const d = decideAlerts({ now: 20 * MIN, afterMs: 15 * MIN, problems: [{ ...API, since: 2 * MIN }], stored: [] });
    expect(d.send).toEqual([{ event: 'problem', key: 'booking.api', sentence: API.sentence, since: 2 * MIN }]);
  });

  it('the recovered message names what was wrong', () => {
    const first = decideAlerts({ now: 0, afterMs: 0, problems: [AUTH], stored: [] });
    const second = decideAlerts({ now: MIN, afterMs: 0, problems: [], stored: first.next });
    expect(second.send).toEqual([{ event: 'recovered', key: AUTH.key, sentence: AUTH.sentence, since: 0 }]);
  });

  it('a key reported twice in one tick is one message', () => {
    expect(decideAlerts({ now: 0, afterMs: 0, problems: [AUTH, AUTH], stored: [] }).send).toHaveLength(1);
  });

  it('a message that reached no one is decided again at the next tick', () => {
    const first = decideAlerts({ now: 0, afterMs: 0, problems: [AUTH], stored: [] });
    const kept = undelivered(first.next, first.send[0]!, []);
    expect(decideAlerts({ now: MIN, afterMs: 0, problems: [AUTH], stored: kept }).send.map((s) => s.event)).toEqual(['problem']);
    const cleared = decideAlerts({ now: 2 * MIN, afterMs: 0, problems: [], stored: first.next });
    const keptAnnounced = undelivered(cleared.next, cleared.send[0]!, first.next);
    expect(decideAlerts({ now: 3 * MIN, afterMs: 0, problems: [], stored: keptAnnounced }).send.map((s) => s.event)).toEqual(['recovered']);
  });

  it('a stored state (a restart) sends no duplicate', () => {
    const first = decideAlerts({ now: 0, afterMs: 0, problems: [AUTH], stored: [] });
    const restored: AlertState[] = JSON.parse(JSON.stringify(first.next)) as AlertState[];
    expect(decideAlerts({ now: 30 * MIN, afterMs: 0, problems: [AUTH], stored: restored }).send).toEqual([]);
  });
});
