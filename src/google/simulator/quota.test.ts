import { expect, it } from 'vitest';
import { RollingQuota } from './quota.ts';

it('admits at most perMinute calls in any rolling minute, refusals not counted', () => {
  const q = new RollingQuota(3);
  expect([q.admit(0), q.admit(10), q.admit(20), q.admit(30)]).toEqual([true, true, true, false]);
  expect(q.admit(59_999)).toBe(false); // the first three are still inside the minute
  expect(q.admit(60_000)).toBe(true); // the call at 0 has left it
  expect(q.admit(60_005)).toBe(false);
  expect(q.admit(60_010)).toBe(true);
});
