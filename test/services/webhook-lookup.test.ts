import { afterEach, describe, expect, it, jest } from '@jest/globals';

/* A resolver that never answers, without a network: the lookup is replaced before the module loads it. */
jest.unstable_mockModule('node:dns/promises', () => ({ lookup: () => new Promise(() => undefined) }));
const { checkWebhookUrl } = await import('../../src/services/webhooks/addresses.js');

afterEach(() => {
  jest.useRealTimers();
});

describe('webhook host lookup', () => {
  it('gives up after 10 s as a name that does not resolve (retried at delivery), not a refusal', async () => {
    jest.useFakeTimers();
    const check = checkWebhookUrl('https://slow.example/hook', { production: false, allowPrivate: false });
    await jest.advanceTimersByTimeAsync(10_000);
    expect(await check).toEqual({ unresolved: 'slow.example does not resolve (ETIMEOUT)' });
  });
});
