// The replay part of the demo: every example scenario in scenarios/ run and written to reports/demo/.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { GlobexCalendar } from '../core/calendar/globex-calendar.js';
import { packageRoot } from '../market/holiday-file.js';
import { loadScenarioFile } from '../scenario/load-scenario.js';
import { ReplayOutputs } from '../reports/replay-outputs.js';

export async function scenarioDemo(calendar: GlobexCalendar, outDir: string): Promise<boolean> {
  const root = packageRoot();
  const files = readdirSync(join(root, 'scenarios'))
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort()
    .map((f) => join(root, 'scenarios', f));
  const out = process.stdout;
  out.write(`propsim demo: replaying ${files.length} example scenarios from scenarios/\n`);
  const scenarios = files.map((file) => loadScenarioFile(file));
  const nameWidth = Math.max(...scenarios.map((s) => s.name.length));
  let allPassed = true;
  for (const scenario of scenarios) {
    const outputs = new ReplayOutputs(outDir);
    const run = await outputs.run(scenario, { calendar });
    const { folder } = (await outputs.write([run]))[0]!;
    outputs.moveIntoPlace();
    const held = run.expectations.filter((e) => e.passed).length;
    out.write(
      `  ${run.passed ? 'PASS' : 'FAIL'}  ${run.scenario.name.padEnd(nameWidth)} ${String(held).padStart(2)}/${run.expectations.length} expectations  ${relative(process.cwd(), folder)}/report.html\n`,
    );
    allPassed &&= run.passed;
  }
  out.write('\n');
  return allPassed;
}
