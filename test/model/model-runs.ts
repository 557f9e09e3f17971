// How many runs a model property makes. The defaults keep `npm test` fast (a few seconds per property on two
// cores); `npm run test:model:long` sets PROPSIM_MODEL_RUNS=2000 for a longer search. Like the other properties
// of the suite, the runs draw a fresh seed each time: a failure prints the seed and the path to replay it.

/** `defaultRuns`, or PROPSIM_MODEL_RUNS when set (a positive integer). */
export function modelRuns(defaultRuns: number): number {
  const text = process.env.PROPSIM_MODEL_RUNS;
  if (text === undefined || text === '') return defaultRuns;
  const runs = Number(text);
  if (!Number.isSafeInteger(runs) || runs < 1)
    throw new Error(`PROPSIM_MODEL_RUNS: expected a positive integer, got ${JSON.stringify(text)}`);
  return runs;
}
