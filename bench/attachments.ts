/**
 * The attachments benchmark (`npm run bench -- --only attachments`, and part of the smoke and full
 * runs), against the service running as its own process:
 *
 * 1. a 12-megapixel phone photo (sideways, with EXIF, a GPS position and an ICC profile) uploaded
 *    through `POST /teachers-app/attachments`, one at a time: decoded, rebuilt, thumbnail made, stored;
 * 2. 20 uploads of 8 MB photos at once, the service's resident memory sampled every 100 ms while
 *    other requests (`GET /healthz` and the parent feed) keep being sent, their latency recorded;
 * 3. `GET /files/:id` of a 200 KB file (a PDF, stored byte for byte) under the same load as the
 *    scenarios, against `express.static` serving a copy of the same file (bench/ceiling-static.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { dataDir, writeReadmeSection } from './layout.js';
import { runLoad, type LoadOptions, type LoadResult } from './load.js';
import type { ServerProcess } from './processes.js';

export interface AttachmentSizes {
  /** The photo of the single uploads: width x height, and how many are sent one after the other. */
  photo: { width: number; height: number; uploads: number };
  /** The photos sent at once: how many, and their size (about `mb` MB each). */
  burst: { uploads: number; width: number; height: number; mb: number };
  /** The file /files serves, in bytes. */
  servedBytes: number;
}

export const fullSizes: AttachmentSizes = {
  photo: { width: 4032, height: 3024, uploads: 5 },
  burst: { uploads: 20, width: 4032, height: 3024, mb: 8 },
  servedBytes: 200 * 1024,
};
export const smokeSizes: AttachmentSizes = {
  photo: { width: 800, height: 600, uploads: 1 },
  burst: { uploads: 3, width: 800, height: 600, mb: 0 },
  servedBytes: 20 * 1024,
};

export interface AttachmentBench {
  photo: { width: number; height: number; bytes: number; seconds: number[]; median: number; max: number; stored: { width: number; height: number; size: number } };
  burst: {
    uploads: number;
    bytes: number;
    statuses: Record<string, number>;
    seconds: number;
    rssStartMb: number | null;
    rssIdleMb: number | null;
    rssPeakMb: number | null;
    others: { requests: number; failed: number; p50: number; p99: number; max: number };
  };
  files: { bytes: number; service: LoadResult; ceiling: LoadResult; share: number };
}

/**
 * A phone photo: `width` x `height` stored pixels of noise over a colour (noise, so that the JPEG has
 * a camera photo's size; `sigma` and `quality` set it), taken sideways (EXIF orientation 6), with a
 * camera name, a GPS position and a Display P3 profile. Made once and kept in bench/.data.
 */
async function phonePhoto(width: number, height: number, sigma: number, quality: number): Promise<Buffer> {
  const file = path.join(dataDir, `photo-${width}x${height}-${sigma}-${quality}.jpg`);
  if (existsSync(file)) return readFileSync(file);
  mkdirSync(dataDir, { recursive: true });
  const raw = await sharp({ create: { width, height, channels: 3, background: { r: 90, g: 140, b: 200 }, noise: { type: 'gaussian', mean: 128, sigma } } }).raw().toBuffer();
  const jpeg = await sharp(raw, { raw: { width, height, channels: 3 } })
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Make: 'BenchPhone', Model: 'Camera 12' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '18/1 31/1 12/1', GPSLongitudeRef: 'E', GPSLongitude: '73/1 51/1 36/1' } })
    .withIccProfile('p3')
    .jpeg({ quality })
    .toBuffer();
  writeFileSync(file, jpeg);
  return jpeg;
}

/** A PDF of exactly `bytes` bytes (a header, then padding): stored and served byte for byte. */
function pdfOf(bytes: number): Buffer {
  const head = Buffer.from('%PDF-1.4\n%bench\n');
  return Buffer.concat([head, Buffer.alloc(bytes - head.length, 0x20)]);
}

interface Uploaded {
  status: number;
  seconds: number;
  body: { data?: { id: number; url: string; width: number; height: number; size: number }; error?: { message: string } };
}

async function upload(server: ServerProcess, token: string, content: Buffer, name: string, type: string): Promise<Uploaded> {
  const form = new FormData();
  form.append('file', new Blob([content], { type }), name);
  const started = performance.now();
  const res = await fetch(`${server.url}/teachers-app/attachments`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form, signal: AbortSignal.timeout(120_000) });
  const body = (await res.json()) as Uploaded['body'];
  return { status: res.status, seconds: Math.round(performance.now() - started) / 1000, body };
}

const quantile = (sorted: number[], q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
const round = (n: number, places = 1) => Math.round(n * 10 ** places) / 10 ** places;

export interface AttachmentRun {
  service: ServerProcess;
  staffToken: string;
  parentToken: string;
  /** Starts the express.static ceiling over a folder. */
  startCeiling(dir: string): Promise<ServerProcess>;
  sizes: AttachmentSizes;
  load: LoadOptions;
  log(line: string): void;
}

export async function benchAttachments(r: AttachmentRun): Promise<AttachmentBench> {
  const { service, sizes, log } = r;

  const rssStartMb = service.rssMb();
  // 1. One photo at a time, after one upload that warms the service's image path up.
  const photo = await phonePhoto(sizes.photo.width, sizes.photo.height, 20, 90);
  const first = await upload(service, r.staffToken, photo, 'IMG_0001.jpg', 'image/jpeg');
  if (first.status !== 201) throw new Error(`the photo upload answered ${first.status}: ${JSON.stringify(first.body)}`);
  const seconds: number[] = [];
  for (let i = 0; i < sizes.photo.uploads; i++) {
    const u = await upload(service, r.staffToken, photo, `IMG_${1002 + i}.jpg`, 'image/jpeg');
    if (u.status !== 201) throw new Error(`the photo upload answered ${u.status}: ${JSON.stringify(u.body)}`);
    seconds.push(u.seconds);
  }
  const sorted = [...seconds].sort((a, b) => a - b);
  const stored = first.body.data!;
  const photoResult = {
    width: sizes.photo.width, height: sizes.photo.height, bytes: photo.length, seconds, median: quantile(sorted, 0.5), max: sorted.at(-1)!,
    stored: { width: stored.width, height: stored.height, size: stored.size },
  };
  log(`  ${sizes.photo.width}x${sizes.photo.height} photo (${round(photo.length / 2 ** 20, 2)} MiB): ${seconds.join(', ')} s; stored ${stored.width}x${stored.height}, ${stored.size} bytes`);

  // 2. Uploads arriving together, other requests sent meanwhile by four clients one after another.
  const burstPhoto = sizes.burst.mb > 0 ? await phonePhoto(sizes.burst.width, sizes.burst.height, 36, 92) : photo;
  const rssIdleMb = service.rssMb();
  let rssPeakMb = rssIdleMb;
  const sampler = setInterval(() => {
    const rss = service.rssMb();
    if (rss !== null && (rssPeakMb === null || rss > rssPeakMb)) rssPeakMb = rss;
  }, 100);
  const latencies: number[] = [];
  let failed = 0;
  let uploading = true;
  const other = async (i: number) => {
    for (let n = 0; uploading; n++) {
      const feed = (i + n) % 2 === 0;
      const started = performance.now();
      try {
        const res = await fetch(`${service.url}${feed ? '/parent-app/activities' : '/healthz'}`, { headers: feed ? { authorization: `Bearer ${r.parentToken}` } : {}, signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        if (res.status !== 200) failed++;
      } catch {
        failed++;
      }
      latencies.push(performance.now() - started);
    }
  };
  const burstStarted = performance.now();
  const others = [0, 1, 2, 3].map(other);
  const uploads = await Promise.all(Array.from({ length: sizes.burst.uploads }, (_, i) => upload(service, r.staffToken, burstPhoto, `burst-${i}.jpg`, 'image/jpeg')));
  const burstSeconds = round((performance.now() - burstStarted) / 1000, 2);
  uploading = false;
  await Promise.all(others);
  clearInterval(sampler);
  const statuses: Record<string, number> = {};
  for (const u of uploads) statuses[u.status] = (statuses[u.status] ?? 0) + 1;
  latencies.sort((a, b) => a - b);
  const burst = {
    uploads: sizes.burst.uploads, bytes: burstPhoto.length, statuses, seconds: burstSeconds, rssStartMb, rssIdleMb, rssPeakMb,
    others: { requests: latencies.length, failed, p50: round(quantile(latencies, 0.5)), p99: round(quantile(latencies, 0.99)), max: round(latencies.at(-1) ?? 0) },
  };
  log(`  ${burst.uploads} uploads of ${round(burstPhoto.length / 2 ** 20, 2)} MiB at once: ${JSON.stringify(statuses)} in ${burstSeconds} s; RSS ${rssStartMb} at start, ${rssIdleMb} before -> peak ${rssPeakMb} MB; ` +
    `${burst.others.requests} other requests (${failed} failed), p50 ${burst.others.p50} ms, p99 ${burst.others.p99} ms, max ${burst.others.max} ms`);

  // 3. /files against express.static, the same bytes from disk.
  const content = pdfOf(sizes.servedBytes);
  const doc = await upload(service, r.staffToken, content, 'circular.pdf', 'application/pdf');
  if (doc.status !== 201) throw new Error(`the PDF upload answered ${doc.status}: ${JSON.stringify(doc.body)}`);
  const signed = new URL(doc.body.data!.url);
  const staticDir = path.join(dataDir, 'static');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(path.join(staticDir, 'circular.pdf'), content);
  const ceiling = await r.startCeiling(staticDir);
  let ceilingLoad: LoadResult;
  try {
    ceilingLoad = await runLoad(ceiling, () => ({ method: 'GET', path: '/circular.pdf', headers: {} }), r.load);
  } finally {
    await ceiling.stop();
  }
  const serviceLoad = await runLoad(service, () => ({ method: 'GET', path: signed.pathname + signed.search, headers: {} }), r.load);
  for (const [name, l] of [['express.static', ceilingLoad], ['service /files', serviceLoad]] as const) {
    const bad = l.non2xx + l.errors;
    if (bad > 0 || l.requests === 0) throw new Error(`${name} answered ${JSON.stringify(l.statuses)} with ${l.errors} errors`);
    log(`  ${name.padEnd(16)} ${String(l.rps).padStart(6)} req/s  p50 ${l.p50} ms  p99 ${l.p99} ms  rss ${l.rssPeakMb} MB  cpu/req ${l.cpuMsPerRequest} ms`);
  }
  const share = Math.round((serviceLoad.rps / Math.max(1, ceilingLoad.rps)) * 100);
  log(`  /files at ${share}% of express.static`);
  return { photo: photoResult, burst, files: { bytes: sizes.servedBytes, service: serviceLoad, ceiling: ceilingLoad, share } };
}

/** The figures as markdown: bench/README.md's attachments section on a full run, bench/.data otherwise. */
export function writeAttachmentsReport(b: AttachmentBench, facts: string, readme: boolean): void {
  const verdict = (met: boolean) => (met ? 'met' : '**not met**');
  const mib = (n: number) => `${round(n / 2 ** 20, 2)} MiB`;
  const l = (x: LoadResult) => `${x.rps} | ${x.p50} | ${x.p99} | ${x.cpuMsPerRequest ?? '—'} | ${x.rssPeakMb ?? '—'}`;
  const lines = [
    facts,
    '',
    '| measure | figure | target |',
    '|---|---|---|',
    `| ${b.photo.width}x${b.photo.height} JPEG (${mib(b.photo.bytes)}, EXIF with GPS, sideways) stored through \`POST /teachers-app/attachments\`, one at a time | median ${b.photo.median} s, max ${b.photo.max} s (${b.photo.seconds.join(', ')}); stored ${b.photo.stored.width}x${b.photo.stored.height}, ${mib(b.photo.stored.size)} | < 1.5 s: ${verdict(b.photo.median < 1.5)} |`,
    `| ${b.burst.uploads} uploads of ${mib(b.burst.bytes)} photos at once | answered ${Object.entries(b.burst.statuses).map(([k, v]) => `${v} × ${k}`).join(', ')} in ${b.burst.seconds} s; RSS ${b.burst.rssStartMb} MB at the service's start, ${b.burst.rssIdleMb} MB before the burst, peak ${b.burst.rssPeakMb} MB | < 300 MB: ${verdict((b.burst.rssPeakMb ?? Infinity) < 300)} |`,
    `| other requests meanwhile (\`GET /healthz\` and the parent feed, four clients) | ${b.burst.others.requests} answered, ${b.burst.others.failed} failed; p50 ${b.burst.others.p50} ms, p99 ${b.burst.others.p99} ms, max ${b.burst.others.max} ms | answered: ${verdict(b.burst.others.failed === 0 && b.burst.others.requests > 0)} |`,
    `| \`GET /files/:id\`, ${round(b.files.bytes / 1024, 0)} KB, against \`express.static\` in the same run | ${b.files.share}% (${b.files.service.rps} against ${b.files.ceiling.rps} req/s) | >= 70%: ${verdict(b.files.share >= 70)} |`,
    '',
    '| server | req/s | p50 ms | p99 ms | CPU ms/req | peak RSS MB |',
    '|---|---:|---:|---:|---:|---:|',
    `| \`express.static\` (bench/ceiling-static.ts) | ${l(b.files.ceiling)} |`,
    `| the service, \`/files/:id\` (signed URL) | ${l(b.files.service)} |`,
  ];
  if (!readme) {
    writeFileSync(path.join(dataDir, 'results-attachments.md'), lines.join('\n') + '\n');
    return;
  }
  writeReadmeSection('attachments', lines.join('\n'));
}
