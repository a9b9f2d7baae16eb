// The model's rule for a delete answered "gone" after agreement: wasted when calbridge could have
// known of the person's deletion (a read answered after it), the way it learns otherwise.
import { expect, it } from 'vitest';
import { PersonDeletions, writesSince } from './person-deletions.ts';

interface Call {
  method: 'REPORT' | 'GET' | 'DELETE' | 'PUT';
  id: string;
  status: number;
}

function side() {
  const log: Call[] = [];
  const deletions = new PersonDeletions<Call>(
    log,
    (c, id) => (c.method === 'REPORT' && c.status < 300) || (c.method === 'GET' && c.id === id),
  );
  const since = (from: number) =>
    writesSince(
      log,
      from,
      (c) => c.method === 'DELETE' || c.method === 'PUT',
      (c) => (c.method === 'DELETE' && c.status === 404 ? c.id : null),
      deletions,
      (c) => `${c.method} ${c.id} (${c.status})`,
    );
  return { log, deletions, since };
}

it('a delete answered gone, with no read between the person deleting the event and it, is how calbridge learns: not counted', () => {
  const s = side();
  s.log.push({ method: 'PUT', id: 'a', status: 201 });
  s.deletions.note('a');
  s.log.push({ method: 'REPORT', id: '', status: 500 }); // a listing that failed shows nothing
  s.log.push({ method: 'DELETE', id: 'a', status: 404 });
  expect(s.since(1)).toEqual({ wasted: [], learned: 1 });
});

it('once a listing or a read of the event answered after the deletion, calbridge knew: the delete is wasted', () => {
  for (const read of [
    { method: 'REPORT', id: '', status: 207 },
    { method: 'GET', id: 'a', status: 404 },
  ] as const) {
    const s = side();
    s.deletions.note('a');
    s.log.push(read);
    s.log.push({ method: 'DELETE', id: 'a', status: 404 });
    expect(s.since(0)).toEqual({ wasted: ['DELETE a (404)'], learned: 0 });
  }
});

it('a delete of an event no person deleted, or one that found it there, is a write like any other', () => {
  const s = side();
  s.deletions.note('b');
  s.log.push({ method: 'DELETE', id: 'a', status: 404 });
  s.log.push({ method: 'DELETE', id: 'b', status: 204 });
  s.log.push({ method: 'PUT', id: 'b', status: 201 });
  expect(s.since(0)).toEqual({ wasted: ['DELETE a (404)', 'DELETE b (204)', 'PUT b (201)'], learned: 0 });
});
