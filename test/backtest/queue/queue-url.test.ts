// `--queue` URLs as connection options (docs/scaling.md#password-and-tls): the password never shown.
import { describe, expect, it } from 'vitest';
import { QueueInputError } from '../../../src/backtest/queue/queue-errors.js';
import { parseQueueUrl } from '../../../src/backtest/queue/queue-url.js';

describe('parseQueueUrl', () => {
  it('redis://host:port: that host and port, database 0, no TLS', () => {
    const { connection, shown } = parseQueueUrl('redis://10.0.0.5:6380');
    expect(connection).toMatchObject({ host: '10.0.0.5', port: 6380, db: 0 });
    expect(connection.tls).toBeUndefined();
    expect(shown).toBe('redis://10.0.0.5:6380');
  });

  it('a password and a database: both passed on, the password shown as ***', () => {
    const { connection, shown } = parseQueueUrl('redis://:s%40cret@queue.example:6379/3');
    expect(connection).toMatchObject({ host: 'queue.example', port: 6379, db: 3, password: 's@cret' });
    expect(shown).toBe('redis://:***@queue.example:6379/3');
  });

  it('rediss://: TLS to that host, the default port 6379 when none is written', () => {
    const { connection } = parseQueueUrl('rediss://user:pw@queue.example');
    expect(connection).toMatchObject({ port: 6379, username: 'user', tls: { servername: 'queue.example' } });
  });

  it.each([
    ['http://localhost:6379', /expected a redis:\/\/ or rediss:\/\/ URL, got http:/],
    ['localhost:6379', /expected a redis:\/\/ or rediss:\/\/ URL/],
    ['not a url', /expected redis:\/\/\[:password@\]host:port\[\/db\]/],
    ['redis://localhost:6379/zero', /the database after the port must be a whole number, got "zero"/],
  ])('%s is refused as invalid input', (text, message) => {
    expect(() => parseQueueUrl(text)).toThrow(QueueInputError);
    expect(() => parseQueueUrl(text)).toThrow(message);
  });
});
