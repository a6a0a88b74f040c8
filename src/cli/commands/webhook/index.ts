import type { Command } from 'commander';
import { addCommand } from '../../runtime.js';
import { webhookAdd } from './add.js';
import { webhookList } from './list.js';
import { webhookRemove } from './remove.js';

export function registerWebhookCommands(program: Command): void {
  const group = program.command('webhook').description("A school's webhooks: signed POSTs of its events to another system");
  addCommand(group, webhookAdd);
  addCommand(group, webhookList);
  addCommand(group, webhookRemove);
}
