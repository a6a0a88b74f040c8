import { describe, expect, it } from '@jest/globals';
import { canonicalZone, quietUntil } from '../../src/push/quiet-hours.js';

const until = (iso: string, zone: string, start: string, end: string) => quietUntil(new Date(iso), zone, { start, end })?.toISOString() ?? null;

describe('quiet hours', () => {
  it('holds until the end of a range within one day, and not outside it', () => {
    expect(until('2026-06-01T08:15:00Z', 'Asia/Kolkata', '13:00', '14:30')).toBe('2026-06-01T09:00:00.000Z');
    expect(until('2026-06-01T09:00:00Z', 'Asia/Kolkata', '13:00', '14:30')).toBeNull();
    expect(until('2026-06-01T07:29:00Z', 'Asia/Kolkata', '13:00', '14:30')).toBeNull();
  });

  it('spans midnight when the start is after the end, on either side of it', () => {
    // 23:30 and 01:00 in Kolkata (UTC+05:30) both end at 07:00 on the next or the same morning.
    expect(until('2026-06-01T18:00:00Z', 'Asia/Kolkata', '22:00', '07:00')).toBe('2026-06-02T01:30:00.000Z');
    expect(until('2026-06-01T19:30:00Z', 'Asia/Kolkata', '22:00', '07:00')).toBe('2026-06-02T01:30:00.000Z');
    expect(until('2026-06-02T01:30:00Z', 'Asia/Kolkata', '22:00', '07:00')).toBeNull();
  });

  it('ends on the wall clock across daylight-saving changes, past a skipped hour', () => {
    expect(until('2026-03-29T00:30:00Z', 'Europe/London', '22:00', '07:00')).toBe('2026-03-29T06:00:00.000Z');
    expect(until('2026-10-25T00:30:00Z', 'Europe/London', '22:00', '07:00')).toBe('2026-10-25T07:00:00.000Z');
    // 02:30 does not exist on 8 March 2026 in New York: the clock jumps from 02:00 EST to 03:00 EDT,
    // past the end, so the quiet hours end with the jump (07:00Z), when a push is no longer held.
    expect(until('2026-03-08T06:15:00Z', 'America/New_York', '01:00', '02:30')).toBe('2026-03-08T07:00:00.000Z');
    expect(until('2026-03-08T07:00:00Z', 'America/New_York', '01:00', '02:30')).toBeNull();
    // London jumps from 01:00 GMT to 02:00 BST on 29 March 2026: an end of 01:30 is the jump, 01:00Z.
    expect(until('2026-03-29T00:45:00Z', 'Europe/London', '23:00', '01:30')).toBe('2026-03-29T01:00:00.000Z');
    // Lord Howe Island skips half an hour (02:00 to 02:30) on 4 October 2026.
    expect(until('2026-10-03T15:20:00Z', 'Australia/Lord_Howe', '01:00', '02:15')).toBe('2026-10-03T15:30:00.000Z');
  });

  it('knows time zones from the platform data, not a list of its own', () => {
    expect(canonicalZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(canonicalZone('utc')).toBe('UTC');
    expect(canonicalZone('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos_Aires');
    expect(canonicalZone('Mars/Base')).toBeNull();
  });
});
