/** One message to one device (push) or one phone number (sms). */
export interface PushMessage {
  channel: 'push' | 'sms';
  /** Device token (push) or phone number (sms). */
  address: string;
  title: string;
  body: string;
  /** Every value a string: FCM refuses others. */
  data: Record<string, string>;
}

/**
 * What a send came to. `retryable`: a 5xx, 429, timeout or network failure, worth another try later;
 * `unregistered`: the device token is dead and must be forgotten; `permanent`: retrying cannot help.
 */
export type PushResult =
  | { ok: true; id?: string }
  | { ok: false; kind: 'retryable' | 'unregistered' | 'permanent'; error: string };

export interface PushProvider {
  readonly name: 'log' | 'fcm';
  send(message: PushMessage): Promise<PushResult>;
  close(): Promise<void>;
}
