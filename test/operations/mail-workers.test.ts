/**
 * Two mail workers draining one outbox at once, as two instances or processes on one
 * database do: each mail reaches the SMTP server exactly once.
 */
import { afterEach, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createMailWorker, createOutbox } from '../../src/services/operations/index.js';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import { buildTestServices, type TestServices } from '../helpers/services.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';

describeEachDatabase('mail workers sharing an outbox ($name)', (target: DatabaseTarget) => {
  let built: TestServices | undefined;
  let smtp: TestSmtp | undefined;
  afterEach(async () => {
    await built?.close();
    await smtp?.close();
  });

  it('sends each mail once when two workers drain at the same moment', async () => {
    built = await buildTestServices({ target });
    smtp = await startSmtp();
    const outbox = createOutbox(built.store, built.clock, true);
    const addresses = Array.from({ length: 6 }, (_, i) => `reader${i}@example.com`);
    for (const to of addresses) await outbox.enqueue({ to, subject: 'Hello', text: 'One mail' });

    const worker = () =>
      createMailWorker({
        store: built!.store,
        clock: built!.clock,
        smtpUrl: smtp!.url,
        from: 'folio@example.com',
        logger: createLogger('silent'),
      });
    const [first, second] = await Promise.all([worker(), worker()]);
    await Promise.all([first.drain(), second.drain(), first.drain(), second.drain()]);
    await Promise.all([first.stop(), second.stop()]);

    expect(smtp.mails.flatMap((m) => m.to).sort()).toEqual([...addresses].sort());
    const unsent = await built.store.db
      .selectFrom('outbox')
      .select('id')
      .where('sent_at', 'is', null)
      .execute();
    expect(unsent).toEqual([]);
  });
});
