/** The Redis the tests use (TEST_REDIS_URL; the machine's own by default). */
export const redisUrl = () => process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
