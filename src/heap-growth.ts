import { setFlagsFromString } from 'node:v8';

/**
 * After each full collection V8 lets the old generation grow to as much as four times what
 * survived before it collects again. About 80 MB survive here (a third of it the admin console's
 * modules), so under load the server sat at 410-420 MB. Growing by 70% at most holds it near 240
 * MB: full collections come more often, each a few milliseconds on this thread, for no measurable
 * change in CPU per request (bench/README.md). Imported first, before the modules load.
 */
setFlagsFromString('--heap-growing-percent=70');
