// docs/api.md#a-worked-session is pasted by newcomers as it is: run its shell block verbatim (only the port
// changes) against a real `propsim serve` and compare what it prints with the output the page shows.
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const page = readFileSync(`${root}docs/api.md`, 'utf8');
const section = page.slice(page.indexOf('## A worked session'));
const script = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
const shown = /```text\n([\s\S]*?)```/.exec(section)![1]!;
/** Request ids are random: the page shortens them. */
const withoutRequestIds = (text: string) => text.replace(/"request_id":"[^"]*"/g, '"request_id":"…"');

describe('docs/api.md#a-worked-session', () => {
  let server: ReturnType<typeof spawn>;
  let url: string;

  beforeAll(async () => {
    server = spawn(process.execPath, [`${root}bin/propsim.js`, 'serve', '--port', '0', '--memory']);
    url = await new Promise<string>((found, failed) => {
      let stderr = '';
      server.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(stderr);
        if (match) found(match[1]!);
      });
      server.once('exit', (code) => failed(new Error(`serve exited ${code}: ${stderr}`)));
    });
  }, 30_000);
  afterAll(() => {
    server.kill('SIGTERM');
  });

  it('prints what the page shows when pasted into a shell', async () => {
    expect(script).toContain('API=http://127.0.0.1:8080\n');
    const output = await new Promise<string>((done, failed) =>
      execFile('bash', ['-c', script.replace('API=http://127.0.0.1:8080', `API=${url}`)], (error, stdout, stderr) =>
        error ? failed(new Error(`${error.message}\n${stderr}`)) : done(stdout),
      ),
    );
    expect(withoutRequestIds(output)).toBe(withoutRequestIds(shown));
  }, 60_000);
});
