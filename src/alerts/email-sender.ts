// E-mail alerts over SMTP with nodemailer, loaded on the first message (a daemon without e-mail
// alerts never loads it). smtp_url carries the account (smtps://user:password@host:465); nodemailer
// reads it as is. Failures are told by their code only: an SMTP server's reply can quote the account.
import { createRequire } from 'node:module';
import type { Transporter } from 'nodemailer';
import { AlertSendError, alertTitle, failureCode, type AlertSender } from './sender.ts';

const require = createRequire(import.meta.url);

export interface EmailOptions {
  smtp_url: string;
  from: string;
  to: string[];
}

export function emailSender(o: EmailOptions): AlertSender {
  let transport: Transporter | undefined;
  const mailer = (): Transporter => {
    if (!transport) {
      const nodemailer = require('nodemailer') as typeof import('nodemailer');
      // A slow server must not hold a tick for minutes; nodemailer's own defaults are 2 to 10 minutes.
      transport = nodemailer.createTransport(o.smtp_url, {
        connectionTimeout: 15_000,
        greetingTimeout: 15_000,
        socketTimeout: 30_000,
      } as object);
    }
    return transport;
  };
  return {
    name: 'email',
    async send(m) {
      try {
        await mailer().sendMail({
          from: o.from,
          to: o.to,
          subject: alertTitle(m),
          text: `${m.sentence}\n\nSince: ${m.since}\nStatus: ${m.status_url}\n`,
        });
      } catch (e) {
        const reply = e && typeof e === 'object' && 'responseCode' in e ? ` ${String((e as { responseCode: unknown }).responseCode)}` : '';
        throw new AlertSendError(`the SMTP server refused or could not be reached (${failureCode(e)}${reply})`);
      }
    },
  };
}
