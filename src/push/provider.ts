/** What a message is about, as its record says (never a link or an address): what a log line may carry. */
export type MessageData = Record<string, string>;

/** One push to one device. */
export interface PushMessage {
  channel: 'push';
  /** The device token. */
  address: string;
  title: string;
  body: string;
  /** Every value a string: FCM refuses others. */
  data: MessageData;
}

/** One text message to one phone. */
export interface SmsMessage {
  channel: 'sms';
  /** E.164. */
  to: string;
  body: string;
  data: MessageData;
}

/** One e-mail to one address. */
export interface EmailMessage {
  channel: 'email';
  to: string;
  /** The display name of the From address (the school's name): the address itself is MAIL_FROM. */
  fromName: string;
  subject: string;
  text: string;
  html: string;
  /** The one-click unsubscribe link (RFC 8058) of an e-mail to a parent. */
  unsubscribeUrl?: string;
  data: MessageData;
}

export type OutboundMessage = PushMessage | SmsMessage | EmailMessage;

/**
 * What a send came to. `retryable`: a 5xx, 429, timeout or network failure, worth another try later;
 * `unregistered`: the device token is dead and must be forgotten; `permanent`: retrying cannot help.
 * `code` is the gateway's own error code when it gave one (Twilio's 21610: the recipient replied STOP).
 */
export type SendResult =
  | { ok: true; id?: string }
  | { ok: false; kind: 'retryable' | 'unregistered' | 'permanent'; error: string; code?: number };

export type PushResult = SendResult;

export interface PushProvider {
  readonly name: 'log' | 'fcm';
  send(message: PushMessage): Promise<SendResult>;
  close(): Promise<void>;
}

export interface SmsProvider {
  readonly name: 'log' | 'twilio';
  send(message: SmsMessage): Promise<SendResult>;
  close(): Promise<void>;
}

export interface EmailProvider {
  readonly name: 'log' | 'smtp';
  send(message: EmailMessage): Promise<SendResult>;
  /** `degraded` while the last attempt could not reach the mail server (refused, timed out, or a 4xx reply). */
  status(): 'ok' | 'degraded';
  close(): Promise<void>;
}
