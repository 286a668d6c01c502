/**
 * Tests of the long matrix: they run where PIPPIN_LONG_TESTS=1 (CI's Node 22 and 24 runs of the whole
 * Node suite, `npm run test:node22` / `test:node24`) and are skipped by `npm test`, which must stay
 * under 10 minutes on a 2-core machine.
 */
export const LONG_TESTS = process.env.PIPPIN_LONG_TESTS === '1';

/** node:test options of a long test: skipped (with the reason) unless PIPPIN_LONG_TESTS=1. */
export const longOnly: { skip?: string } = LONG_TESTS ? {} : { skip: 'long matrix: PIPPIN_LONG_TESTS=1 (CI runs it on Node 22 and 24)' };
