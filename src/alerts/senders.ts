// The channels configured in `alerts:` (docs/reference/configuration.md, "alerts").
import type { AlertsConfig } from '../config/schema.ts';
import { emailSender } from './email-sender.ts';
import { ntfySender, webhookSender, type HttpSenderOptions } from './http-senders.ts';
import type { AlertSender } from './sender.ts';

export function alertSenders(cfg: AlertsConfig, o: HttpSenderOptions = {}): AlertSender[] {
  return [
    ...(cfg.ntfy ? [ntfySender(cfg.ntfy, o)] : []),
    ...(cfg.webhook ? [webhookSender(cfg.webhook, o)] : []),
    ...(cfg.email ? [emailSender(cfg.email)] : []),
  ];
}
