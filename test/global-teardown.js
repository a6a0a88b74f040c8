import mysql from 'mysql2/promise';

export default async function globalTeardown() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url || !process.env.SP_TEMPLATE_MYSQL) return;
  const conn = await mysql.createConnection(url);
  await conn.query(`DROP DATABASE IF EXISTS \`${process.env.SP_TEMPLATE_MYSQL}\``);
  await conn.end();
}
