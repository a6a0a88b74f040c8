import session from 'express-session';
import { Op } from 'sequelize';
import { ConsoleSession } from '../models/index.js';

type Callback<T = void> = (err?: unknown, value?: T) => void;

/**
 * express-session's store over the console_sessions table, so that every instance behind a load
 * balancer sees the same console sign-ins. Only the cookie session lives here: whether the admin
 * is still signed in is decided by the sessions row it points to, checked on every request. No
 * touch(): the sign-in ends with that row, so sliding the cookie's expiry would cost a write per request for nothing.
 */
export class DatabaseSessionStore extends session.Store {
  constructor(private readonly fallbackTtlMs: number) {
    super();
  }

  private expiry(data: session.SessionData): Date {
    const expires = data.cookie?.expires;
    return expires ? new Date(expires) : new Date(Date.now() + this.fallbackTtlMs);
  }

  override get(sid: string, callback: Callback<session.SessionData | null>): void {
    ConsoleSession.findOne({ where: { sid, expires_at: { [Op.gt]: new Date() } }, attributes: ['data'], raw: true })
      .then((row) => callback(null, row ? (JSON.parse(row.data) as session.SessionData) : null), callback);
  }

  override set(sid: string, data: session.SessionData, callback?: Callback): void {
    ConsoleSession.upsert({ sid, data: JSON.stringify(data), expires_at: this.expiry(data) })
      .then(() => callback?.(), (err) => callback?.(err));
  }

  override destroy(sid: string, callback?: Callback): void {
    ConsoleSession.destroy({ where: { sid } }).then(() => callback?.(), (err) => callback?.(err));
  }

  /** Deletes expired cookie sessions; run at each sign-in, so the table stays as small as the number of live sign-ins. */
  async prune(): Promise<number> {
    return ConsoleSession.destroy({ where: { expires_at: { [Op.lt]: new Date() } } });
  }
}
