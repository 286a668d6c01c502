/**
 * The planner's working-set rule (src/msm/plan.ts, docs/msm.md): the working set comes from the
 * regions allocWorkspace lays out, the batch shrinks to fit the L2 budget (not below MIN_FIT_BATCH),
 * and a table c that does not fit stands only if it wins on the miss-counting model.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MIN_FIT_BATCH, accumulationCaps, accumulationWorkingSet, batchFor, batchToFit, describeWindows, modelMuls, planMsm, workspaceRegions } from '../src/msm/plan.js';
import { workspaceBytes } from '../src/msm/tiles.js';
import { cacheTuning } from '../src/curves/cache.tuning.js';
import { bls12_381Tuning } from '../src/curves/bls12-381.tuning.js';

const G1 = { EB: 52, packedBytes: 48 }; // BLS12-381 G1, 30-bit limbs
const budget = cacheTuning.l2Bytes;

describe('planner working set', () => {
  it('counts the buckets and a full batch of the regions allocWorkspace allocates', () => {
    const L = 4096;
    const B = 512;
    const { tempCap, deferredCap } = accumulationCaps(B, L);
    const r = workspaceRegions(G1, L, B, tempCap, deferredCap);
    const ws = accumulationWorkingSet(G1, L, B);
    assert.equal(ws.buckets, r.buckets + r.bstate + r.pending);
    assert.equal(ws.buckets, L * (2 * G1.EB + 5));
    assert.ok(ws.batch > r.pairs + r.scratch && ws.batch < Object.values(r).reduce((a, b) => a + b, 0) - ws.buckets);
    assert.equal(ws.total, ws.buckets + ws.batch + ws.inFlight);
    // the memory budget's workspace bytes are the same regions and alignment
    assert.equal(workspaceBytes(G1.EB, L, B, tempCap, deferredCap), Object.values(r).reduce((a, b) => a + b, 0) + 160);
  });

  it('shrinks the batch until the working set fits, not below MIN_FIT_BATCH', () => {
    for (const logN of [10, 12, 14, 16, 18, 20]) {
      for (let c = 6; c <= 16; c++) {
        const halves = 2 ** (logN + 1);
        const B = batchToFit(halves, c, G1);
        assert.ok(B <= batchFor(halves));
        assert.ok(B >= Math.min(MIN_FIT_BATCH, batchFor(halves)), `2^${logN} c = ${c}: B = ${B}`);
        if (B > MIN_FIT_BATCH) assert.ok(accumulationWorkingSet(G1, 2 ** (c - 1), B).total <= budget || B === batchFor(halves));
      }
    }
    assert.equal(batchToFit(2 ** 17, 13), batchFor(2 ** 17), 'without the group sizes: batchFor');
  });

  it('keeps a table c that needs more than the budget only when it wins on the model', () => {
    let lost = 0;
    for (const logN of [12, 16]) {
      const halves = 2 ** (logN + 1);
      const cost = (c: number) => modelMuls(halves, c, batchToFit(halves, c, G1), G1);
      const fits = (c: number) => accumulationWorkingSet(G1, 2 ** (c - 1), batchToFit(halves, c, G1)).total <= budget;
      let bestFitting = 2;
      for (let c = 2; c <= 16; c++) if (fits(c) && cost(c) < cost(bestFitting)) bestFitting = c;
      for (let c = 8; c <= 16; c++) {
        const plan = planMsm(2 ** logN, [[logN, c]], undefined, G1);
        if (fits(c) || cost(c) <= cost(bestFitting)) assert.equal(plan.c, c, `2^${logN}: table c = ${c} stands`);
        else {
          lost++;
          assert.notEqual(plan.c, c, `2^${logN}: table c = ${c} loses`);
          assert.ok(cost(plan.c) <= cost(bestFitting));
        }
        assert.equal(plan.workingSet, accumulationWorkingSet(G1, plan.buckets, plan.batch).total);
      }
    }
    assert.ok(lost > 0, 'some table c lost');
    // an explicit window is taken as given
    assert.equal(planMsm(2 ** 12, [], 16, G1).c, 16);
  });

  it('BLS12-381 G1 at 2^16: the table c = 15 (9 windows: 7 of 14 bits, 2 of 15) with a batch of 512, kept over every c that fits 512 KiB by the model', () => {
    const plan = planMsm(2 ** 16, bls12_381Tuning.msmWindow.table, undefined, G1);
    assert.deepEqual([plan.c, plan.windows, plan.narrow, plan.batch], [15, 9, 7, MIN_FIT_BATCH]);
    assert.equal(describeWindows(plan), '9 windows: 7 of 14 bits, 2 of 15');
    assert.ok(plan.workingSet > budget);
    const halves = 2 ** 17;
    const cost = (c: number) => modelMuls(halves, c, batchToFit(halves, c, G1), G1);
    for (let c = 2; c <= 16; c++) if (accumulationWorkingSet(G1, 2 ** (c - 1), batchToFit(halves, c, G1)).total <= budget) assert.ok(cost(c) > cost(15), `c = ${c} fits and costs more`);
    assert.equal(describeWindows(planMsm(2 ** 18, bls12_381Tuning.msmWindow.table, undefined, G1)), '8 windows of 16 bits');
  });
});
