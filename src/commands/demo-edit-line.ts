// A simulated person's edit in the demo's simulated Google or Outlook, as a line of its terminal
// log, in the demo's locale; `app` names where ("Google", "Outlook (Carla)").
import { DateTime } from 'luxon';
import type { Messages } from '../core/i18n/index.ts';
import type { PersonEdit } from '../core/simulated-person.ts';

export function editLine(edit: PersonEdit, app: string, zone: string, m: Messages): string | undefined {
  const at = (ms: number) => DateTime.fromMillis(ms, { zone }).setLocale(m.tag).toFormat('ccc d LLL HH:mm');
  switch (edit.kind) {
    case 'moved-to-free-slot':
      return m.demo.movedFree(app, edit.summary, at(edit.from), at(edit.to));
    case 'moved-onto-taken-slot':
      return m.demo.movedTaken(app, edit.summary, at(edit.from), edit.onto, at(edit.to));
    case 'deleted':
      return m.demo.deleted(app, edit.summary, at(edit.at));
    case 'nothing':
      return undefined;
  }
}
