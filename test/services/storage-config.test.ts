import { describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.js';

const dir = () => mkdtempSync(path.join(tmpdir(), 'sp-config-'));

/** Section 25's settings: where attachments are kept and how long their URLs work. */
describe('storage configuration', () => {
  it('keeps files under DATA_DIR/files and signs URLs for an hour unless told otherwise', () => {
    const d = dir();
    const c = loadConfig({ DATA_DIR: d });
    expect(c.storage).toEqual({ driver: 'local', dir: path.join(d, 'files') });
    expect(c.fileUrlTtlSeconds).toBe(3600);
  });

  it('reads an S3-compatible store from STORAGE_URL, S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE and the AWS credentials', () => {
    const c = loadConfig({
      DATA_DIR: dir(), STORAGE_URL: 's3://school-files/prod/attachments', S3_ENDPOINT: 'https://acc.r2.cloudflarestorage.com', S3_REGION: 'auto',
      S3_FORCE_PATH_STYLE: 'true', AWS_ACCESS_KEY_ID: 'AKIA1', AWS_SECRET_ACCESS_KEY: 'secret', FILE_URL_TTL_SECONDS: '604800',
    });
    expect(c.storage).toEqual({
      driver: 's3', bucket: 'school-files', prefix: 'prod/attachments', endpoint: 'https://acc.r2.cloudflarestorage.com', region: 'auto', forcePathStyle: true,
      credentials: { accessKeyId: 'AKIA1', secretAccessKey: 'secret' },
    });
    expect(c.fileUrlTtlSeconds).toBe(604800);
    expect(loadConfig({ DATA_DIR: dir(), STORAGE_URL: 's3://bucket' }).storage).toEqual({
      driver: 's3', bucket: 'bucket', prefix: '', endpoint: undefined, region: 'us-east-1', forcePathStyle: false, credentials: undefined,
    });
  });

  it.each([
    ['STORAGE_URL', 'https://bucket.s3.amazonaws.com'],
    ['STORAGE_URL', 's3://'],
    ['STORAGE_URL', 's3://Bad_Bucket'],
    ['STORAGE_URL', 's3://ab'],
    ['STORAGE_URL', 's3://bucket/with space'],
    ['S3_ENDPOINT', 'minio:9000'],
    ['S3_REGION', 'Mars Base'],
    ['S3_FORCE_PATH_STYLE', 'sometimes'],
    ['FILE_URL_TTL_SECONDS', '0'],
    ['FILE_URL_TTL_SECONDS', '604801'],
    ['FILE_URL_TTL_SECONDS', 'an hour'],
  ])('stops on a bad %s naming the variable', (name, value) => {
    expect(() => loadConfig({ DATA_DIR: dir(), [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir(), [name]: value })).toThrow(name);
  });

  it('wants the secret key with an access key id', () => {
    expect(() => loadConfig({ DATA_DIR: dir(), STORAGE_URL: 's3://bucket', AWS_ACCESS_KEY_ID: 'AKIA1' })).toThrow(/AWS_SECRET_ACCESS_KEY/);
  });
});
