// The one error a scenario file can raise while it is loaded and validated. It names the file, the line and
// column when it came from a file, the field path (`steps[4].order.limit_price`) and, in the message, the
// step index and type:
//   scenarios/x.yaml:23:60: steps[4] (order): limit_price: expected a decimal string …, got the number 4999.75
import { type FieldError } from '../core/validation/input-fields.js';

export interface ScenarioErrorOptions extends ErrorOptions {
  /** 1-based line and column: of a YAML/JSON syntax error, or of the field a validation error names. */
  line?: number;
  column?: number;
}

export class ScenarioError extends Error {
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(
    readonly file: string,
    /** Field path inside the document, like `steps[4].order.limit_price`; '' for the whole file. */
    readonly path: string,
    /** Where, as the message shows it: `steps[4] (order): limit_price`, or the path. */
    readonly where: string,
    /** What was expected and what came. */
    readonly detail: string,
    options: ScenarioErrorOptions = {},
  ) {
    const position = options.line === undefined ? '' : `:${options.line}:${options.column ?? 1}`;
    super(`${file}${position}: ${where === '' ? '' : `${where}: `}${detail}`, options);
    this.name = 'ScenarioError';
    this.line = options.line;
    this.column = options.column;
  }
}

/** The same error with the line and column its field was written at (when known). */
export function withSourcePosition(
  error: ScenarioError,
  position: { line: number; column: number } | undefined,
): ScenarioError {
  if (position === undefined) return error;
  return new ScenarioError(error.file, error.path, error.where, error.detail, {
    cause: error.cause,
    line: position.line,
    column: position.column,
  });
}

/** A FieldError outside the steps (its path is from the document's top). */
export function scenarioErrorFromField(file: string, error: FieldError): ScenarioError {
  return new ScenarioError(file, error.path, error.path, error.detail, { cause: error });
}

/**
 * A FieldError inside step `index`, its path relative to the step mapping (`order.limit_price`,
 * `expect_status`); `kind` is the step's type when it is known.
 */
export function scenarioErrorInStep(
  file: string,
  index: number,
  kind: string | undefined,
  error: FieldError,
): ScenarioError {
  const stepPath = `steps[${index}]`;
  const inBody =
    kind !== undefined &&
    (error.path === kind || error.path.startsWith(`${kind}.`) || error.path.startsWith(`${kind}[`));
  const field = inBody ? error.path.slice(kind.length).replace(/^\./, '') : error.path;
  const where = `${stepPath}${kind === undefined ? '' : ` (${kind})`}${field === '' ? '' : `: ${field}`}`;
  const path = error.path === '' ? stepPath : `${stepPath}.${error.path}`;
  return new ScenarioError(file, path, where, error.detail, { cause: error });
}
