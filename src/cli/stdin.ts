// Reads all of standard input as lines (for commands that take their inputs from a pipe).
export async function readStdinLines(): Promise<string[]> {
  if (process.stdin.isTTY) process.stderr.write('reading times from stdin, one a line (end with Ctrl-D)\n');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/);
}
