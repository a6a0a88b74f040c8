import { describe, it, expect, afterAll } from '@jest/globals';
import { freshDatabase, type TestDatabase } from '../helpers/database.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';

/** What an operator reads when the server starts: where the console is, an address to open as printed. */
let db: TestDatabase;
let server: ServerProcess | undefined;

afterAll(async () => {
  await server?.stop();
  await db?.drop();
});

describe('the server at start', () => {
  it("prints the console's address, which opens the console's sign-in page", async () => {
    db = await freshDatabase();
    server = await startServer({ ADMIN_CONSOLE_ENABLED: 'true', LOG_LEVEL: 'info', DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl }, { startTimeoutMs: 120_000 });
    const deadline = Date.now() + 10_000;
    while (!server.output().includes('admin console at') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const printed = /admin console at (http:\/\/\S+\/admin)"/.exec(server.output());
    expect(printed?.[1]).toBe(`http://127.0.0.1:${server.port}/admin`);
    const login = await fetch(`${printed![1]}/login`);
    expect(login.status).toBe(200);
    await expect(login.text()).resolves.toContain('School platform console');
  }, 180_000);
});
