import { describe, expect, it } from 'vitest';
import { Signal } from './signal.ts';

describe('signal', () => {
  it('hold announces what fn emitted once fn has returned, in order', () => {
    const s = new Signal<number>();
    const heard: string[] = [];
    s.subscribe((n) => heard.push(`heard ${n}`));
    const result = s.hold(() => {
      s.emit(1);
      s.emit(2);
      heard.push('returned');
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(heard).toEqual(['returned', 'heard 1', 'heard 2']);
  });

  it('hold announces nothing when fn throws (a transaction rolled back changed nothing)', () => {
    const s = new Signal<number>();
    const heard: number[] = [];
    s.subscribe((n) => heard.push(n));
    expect(() =>
      s.hold(() => {
        s.emit(1);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    s.emit(2);
    expect(heard).toEqual([2]);
  });
});
