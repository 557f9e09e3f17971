// The replay report as a reader sees it: a long value (a sha256) wraps instead of making the page scroll
// sideways, expected money reads like the actual, and the risk engine's orders are told apart from the client's.
// Drawn in Debian's chromium at a phone's width and a laptop's.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../browser/chromium.js';
import { runCli } from '../cli/run-cli.js';

let browser: Browser;
let out: string;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'propsim-report-page-'));
  // daily-loss-breach-and-roll: the breach flattens a position (a risk order); its expectations hold money.
  // A wrong expect_events_sha256 puts two 64-digit values in the expectations table (the run fails: exit 1).
  const scenario = readFileSync('scenarios/daily-loss-breach-and-roll.yaml', 'utf8');
  writeFileSync(join(out, 'breach.yaml'), `${scenario}\nexpect_events_sha256: "${'0'.repeat(64)}"\n`);
  const replay = runCli(['replay', join(out, 'breach.yaml'), '--out', out]);
  expect(replay.status, replay.stderr).toBe(1);
  browser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

function reportFile(): string {
  const name = readFileSync(join(out, 'breach.yaml'), 'utf8').match(/^name: (.*)$/m)![1]!;
  return join(out, name.toLowerCase().replace(/[^a-z0-9]+/g, '-'), 'report.html');
}

describe('replay report.html', () => {
  it('does not scroll sideways at 600 px or at 1280 px: long values wrap, wide tables scroll inside, charts scale down', async () => {
    const page = await browser.newPage();
    try {
      for (const width of [600, 1280]) {
        await page.setViewport({ width, height: 900 });
        await page.goto(`file://${reportFile()}`);
        // Runs in the page: its window and document, typed here without the DOM library.
        type Page = { innerWidth: number; document: { scrollingElement: { scrollWidth: number } } };
        const { scroll, inner } = await page.evaluate(() => {
          const view = globalThis as unknown as Page;
          return { scroll: view.document.scrollingElement.scrollWidth, inner: view.innerWidth };
        });
        expect(inner, 'the viewport as set').toBe(width);
        expect(scroll, `at ${width} px`).toBeLessThanOrEqual(inner);
        // A decimal in the expectations table stays on one line ("48000.00", never "48000" over ".00").
        const broken = await page.evaluate(() => {
          type Cell = { textContent: string };
          type Doc = {
            querySelectorAll(selector: string): Iterable<Cell>;
            createRange(): { selectNodeContents(node: Cell): void; getClientRects(): { length: number } };
          };
          const doc = (globalThis as unknown as { document: Doc }).document;
          const decimals = [...doc.querySelectorAll('.expectations td')].filter((td) =>
            /^-?[0-9]+[.][0-9]+$/.test(td.textContent.trim()),
          );
          const lines = (td: Cell) => {
            const range = doc.createRange();
            range.selectNodeContents(td);
            return range.getClientRects().length;
          };
          return {
            decimals: decimals.length,
            broken: decimals.filter((td) => lines(td) > 1).map((td) => td.textContent),
          };
        });
        expect(broken.decimals, 'decimals in the expectations table').toBeGreaterThan(0);
        expect(broken.broken, `at ${width} px`).toEqual([]);
      }
    } finally {
      await page.close();
    }
  }, 60_000);

  it('expected money is written like the actual, and risk-engine orders are marked and tinted', () => {
    const html = readFileSync(reportFile(), 'utf8');
    const expectations = html.slice(html.indexOf('<h2>Expectations</h2>'), html.indexOf('<h2>Orders</h2>'));
    expect(expectations).toContain('events_sha256');
    expect(expectations).not.toMatch(/<td>"-?\d+(\.\d+)?"<\/td>/); // no money in quotes
    // Each held row with two decimal cells shows the same text on both sides.
    const rows = [...expectations.matchAll(/<td>(-?\d+\.\d+)<\/td><td>(-?\d+\.\d+)<\/td><td>held<\/td>/g)];
    expect(rows.length).toBeGreaterThan(3);
    for (const [, expected, actual] of rows) expect(expected).toBe(actual);

    const orders = html.slice(html.indexOf('<h2>Orders</h2>'), html.indexOf('<h2>Positions</h2>'));
    expect(orders).toContain('<th>origin</th>');
    expect(orders).toMatch(/<tr class="risk"><td>[0-9a-f]{8}<\/td><td>risk engine<\/td>/);
    expect(orders).toMatch(/<tr class="client"><td>[0-9a-f]{8}<\/td><td>client<\/td>/);
  });
});
