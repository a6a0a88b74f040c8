import { setFlagsFromString } from 'node:v8';

/** A V8 flag set here unless node's command line gives it (either spelling, or its `--no-` form). */
function unlessGiven(flag: string, setting: string): void {
  const names = [flag, flag.replaceAll('-', '_')];
  if (!process.execArgv.some((arg) => names.some((n) => arg.startsWith(`--${n}`) || arg.startsWith(`--no-${n}`) || arg.startsWith(`--no_${n}`)))) {
    setFlagsFromString(setting);
  }
}

/*
 * Imported first, before the modules load.
 *
 * After each full collection V8 lets the old generation grow to as much as four times what
 * survived before it collects again. About 60 MB survive here (a third of it the admin console's
 * modules), so under load the server sat at 410-420 MB. Growing by 75% at most holds it under
 * 250 MB with the console in use. Each full collection pauses every request in flight, so the
 * growth is the largest the memory target leaves: at 50% they came every 3.5-4.5 s under load and
 * widened the reads' p99 (README, design notes).
 */
unlessGiven('heap-growing-percent', '--heap-growing-percent=75');

/*
 * With 50 requests in flight, most of what a request allocates is still alive at the next young
 * collection, so V8 decides that the code making it should allocate straight into the old
 * generation ("pretenuring"). Those objects then die there: every young collection scans more
 * old-to-young references and the old generation fills with short-lived garbage. Without it the
 * feed measured 6-13% less CPU a request and cheaper young collections (bench/README.md).
 */
unlessGiven('allocation-site-pretenuring', '--no-allocation-site-pretenuring');
