import type { Transaction } from 'sequelize';
import type { AppContext } from '../../context.js';
import { notifyFamilies, type FamilyNews } from '../delivery/channel-choice.js';
import { audienceFamilies, type AudienceEntity } from './audiences.js';

/**
 * Tells the families an item reaches about it, each by its channel (a push to its devices, else an
 * e-mail or an SMS), written to the outbox in the caller's transaction (publishing, a reminder): the
 * item and its notifications commit together. Families are given, or found from the item's audience.
 * Returns the ids of the records written.
 */
export async function notifyAudience(
  ctx: AppContext, item: { schoolId: string; entity: AudienceEntity; id: number; scope: number }, news: FamilyNews, transaction: Transaction, families?: number[],
): Promise<number[]> {
  const parents = families ?? (await audienceFamilies(ctx, item.schoolId, item.entity, item.id, item.scope, transaction));
  return notifyFamilies(ctx, item.schoolId, parents, news, transaction);
}
