// A plan's news file (docs/risk-rules.md#news-blackouts): `risk_profile.news.file` names a CSV of events relative to
// the folder of the file that names it (a scenario, a plan file, a back-test config, a sandbox seed), as a scenario's
// market files are. It is read once, when that file is loaded, and the plan as written carries its events inline
// from then on (news.events): the kernel reads no files, a journal replays without the CSV, and a back-test cell on
// another machine gets the events with its plan. A missing file names the field and where it was looked for; a bad
// row names the CSV's line, column and field (core/accounts/news-rule.ts parses it).
import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { at, FieldError, isFields } from '../core/validation/input-fields.js';
import { NewsCsvError, parseNewsCsv } from '../core/accounts/news-rule.js';
import { ScenarioError } from './scenario-error.js';

/**
 * A plan (or an account's overlay) as written, with `risk_profile.news.file` replaced by the file's events; the value
 * itself when it names no file. `folder` is the folder of the file that names it; `path` where the plan is written.
 */
export function inlineNewsFile<T>(plan: T, folder: string, path: string): T {
  if (!isFields(plan) || !isFields(plan.risk_profile)) return plan;
  const news = plan.risk_profile.news;
  if (!isFields(news) || typeof news.file !== 'string') return plan;
  const { file, ...rest } = news;
  const events = readNewsFile(file, folder, at(path, 'risk_profile.news.file'));
  return { ...plan, risk_profile: { ...plan.risk_profile, news: { ...rest, events } } } as T;
}

/** Every plan of a `plans:` mapping with its news file read. */
export function inlineNewsFiles<T>(plans: Readonly<Record<string, T>> | undefined, folder: string, path: string) {
  if (plans === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(plans).map(([name, plan]) => [name, inlineNewsFile(plan, folder, at(path, name))]),
  ) as Record<string, T>;
}

function readNewsFile(file: string, folder: string, field: string): ReturnType<typeof parseNewsCsv> {
  const full = resolve(folder, file);
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new FieldError(
      field,
      `expected a readable CSV of news events (relative paths are from the folder of the file that names it; looked for ${full}: ${code}), got ${JSON.stringify(file)}`,
    );
  }
  try {
    return parseNewsCsv(text);
  } catch (error) {
    if (!(error instanceof NewsCsvError)) throw error;
    const shown = relative(process.cwd(), full);
    const name = shown.startsWith('..') || isAbsolute(shown) ? full : shown;
    throw new ScenarioError(name, '', error.field, error.detail, {
      cause: error,
      line: error.line,
      column: error.column,
    });
  }
}
