// The booking service's slots are checked and taken one move at a time, across every calendar
// target and account: two people who drag two appointments onto the same free slot in two calendars
// at once would otherwise both pass the slot check before either move lands (docs/reference/behaviour.md,
// "Moves made in a calendar").

/** Runs `take` (the slot check and the reschedule call) after every move taken before it has ended. */
export type SlotLock = <T>(take: () => Promise<T>) => Promise<T>;

export function slotLock(): SlotLock {
  let last: Promise<unknown> = Promise.resolve();
  return (take) => {
    const mine = last.then(take, take);
    last = mine.catch(() => undefined);
    return mine;
  };
}
