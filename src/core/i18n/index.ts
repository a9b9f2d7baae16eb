// The catalogues by `server.locale`. Adding a language: docs/languages.md.
import { en, type Messages, type Output } from './en.ts';
import { ptBR } from './pt-BR.ts';

export type { Messages, Output };

export const LOCALES = ['en', 'pt-BR'] as const;
export type Locale = (typeof LOCALES)[number];

const CATALOGUES: Readonly<Record<Locale, Messages>> = { en, 'pt-BR': ptBR };

export function messagesFor(locale: Locale = 'en'): Messages {
  return CATALOGUES[locale];
}

/** A booking status in words ("No-show", "Não compareceu"); a code the catalogue lacks is never shown raw. */
export function statusLabel(m: Messages, status: string): string {
  return Object.hasOwn(m.status, status) ? m.status[status as keyof Messages['status']] : m.unknownStatus;
}

/** The same in running text: "no-show", "não compareceu". */
export function statusInText(m: Messages, status: string): string {
  return statusLabel(m, status).toLocaleLowerCase(m.tag);
}
