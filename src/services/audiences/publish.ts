import type { Transaction } from 'sequelize';
import type { AppContext } from '../../context.js';
import { enqueue } from '../../push/outbox.js';
import { deviceItems, type NotificationContent } from '../../push/targets.js';
import { chunks } from '../batches.js';
import { audienceFamilies, type AudienceEntity } from './audiences.js';

/**
 * One push to every signed-in device (with a push token) of the families an item reaches, written
 * to the outbox in the caller's transaction (publishing, a reminder): the item and its pushes commit
 * together. Families are given, or found from the item's audience. Returns the ids of the records written.
 */
export async function pushToFamilies(
  ctx: AppContext, item: { schoolId: string; entity: AudienceEntity; id: number; scope: number }, content: NotificationContent, transaction: Transaction,
  families?: number[],
): Promise<number[]> {
  const parents = families ?? (await audienceFamilies(ctx, item.schoolId, item.entity, item.id, item.scope, transaction));
  const written: number[] = [];
  for (const batch of chunks(parents)) {
    const devices = (await deviceItems({ schoolId: item.schoolId, userType: 'parent', userIds: batch }, content, transaction)).filter((i) => i.address);
    written.push(...(await enqueue(devices, transaction)));
  }
  return written;
}
