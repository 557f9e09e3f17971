// Invalid input found by calibration itself (no round trip to measure, nobody left to calibrate on, no held-out
// trader in the period): the CLI says it and exits 2.
export class CalibrationInputError extends Error {
  override name = 'CalibrationInputError';
}
