import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, school } from '../helpers/fixtures.js';

describe('metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_ENABLED: 'true' });
  });
  afterAll(async () => t.close());

  it('counts requests by route template and status, and reports the outbox backlog', async () => {
    const s = await school(t);
    await t.api.get('/web-app/sessions').set(bearer(s.adminToken));
    await t.api.delete('/web-app/sessions/999999').set(bearer(s.adminToken));
    const res = await t.api.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/web-app\/sessions",status="200"\} 1/);
    expect(res.text).toMatch(/http_requests_total\{method="DELETE",route="\/web-app\/sessions\/:id",status="404"\} 1/);
    expect(res.text).toContain('http_request_duration_seconds_bucket');
    expect(res.text).toMatch(/push_outbox_backlog \d+/);
    // The raw id must not become a label; a sample value such as 0.0139999999 may hold the same digits.
    const labelValues = res.text.match(/"[^"]*"/g) ?? [];
    expect(labelValues.length).toBeGreaterThan(0);
    expect(labelValues.filter((v) => v.includes('999999'))).toEqual([]);
    if (t.ctx.db.dialect === 'mysql') {
      // Both pools served this test's requests: the models' (logins, sessions) and the prepared statements'.
      expect(res.text).toMatch(/db_pool_connections\{pool="models",state="size"\} [1-9]/);
      expect(res.text).toMatch(/db_pool_connections\{pool="statements",state="size"\} [1-9]/);
    } else {
      expect(res.text).not.toMatch(/db_pool_connections\{/);
    }
  });

  it('is off unless METRICS_ENABLED=true', async () => {
    const off = await startTestApp();
    try {
      expect((await off.api.get('/metrics')).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
