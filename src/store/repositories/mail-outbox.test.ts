import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import * as outbox from './mail-outbox.js';

const T0 = '2026-01-02T00:00:00.000Z';
const T1 = '2026-01-02T00:01:00.000Z';
const T2 = '2026-01-02T00:02:00.000Z';

function mail(id: string, fields: Partial<outbox.OutboxRow> = {}): outbox.OutboxRow {
  return {
    id,
    to_address: `${id}@example.com`,
    subject: `Subject ${id}`,
    text_body: 'Hello',
    attempts: 0,
    next_attempt_at: T0,
    sent_at: null,
    last_error: null,
    created_at: T0,
    ...fields,
  };
}

describeEachDatabase('mail outbox repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;
  const due = (now: string) =>
    outbox.listDueMail(db(), { now, maxAttempts: 3, limit: 10 }).then((rows) => rows.map((r) => r.id));

  it('queues mail and lists what is due, oldest first, leaving out the given-up and the later', async () => {
    await outbox.insertMail(db(), mail('m2', { created_at: T1 }));
    await outbox.insertMail(db(), mail('m1'));
    await outbox.insertMail(
      db(),
      mail('m-later', { next_attempt_at: T2, created_at: '2026-01-02T00:01:30.000Z' }),
    );
    await outbox.insertMail(db(), mail('m-given-up', { attempts: 3 }));
    await outbox.insertMail(db(), mail('m-sent', { sent_at: T0 }));
    expect(await due(T1)).toEqual(['m1', 'm2']);
    expect(await due(T2)).toEqual(['m1', 'm2', 'm-later']);
    expect(await outbox.listDueMail(db(), { now: T1, maxAttempts: 3, limit: 1 })).toEqual([mail('m1')]);
    expect(await outbox.countUnsentMail(db())).toBe(4);
  });

  it('lets one worker claim a mail, then records a failure or the sending', async () => {
    expect(await outbox.claimMail(db(), 'm1', T0, T2)).toBe(true);
    expect(await outbox.claimMail(db(), 'm1', T0, T2)).toBe(false);
    expect(await due(T1)).toEqual(['m2']);

    await outbox.recordMailFailure(db(), 'm1', { attempts: 1, next_attempt_at: T1, last_error: 'refused' });
    const [retried] = await outbox.listDueMail(db(), { now: T1, maxAttempts: 3, limit: 1 });
    expect(retried).toEqual(mail('m1', { attempts: 1, next_attempt_at: T1, last_error: 'refused' }));

    await outbox.markMailSent(db(), 'm2', T1);
    expect(await outbox.claimMail(db(), 'm2', T0, T2)).toBe(false);
    expect(await due(T1)).toEqual(['m1']);
    expect(await outbox.countUnsentMail(db())).toBe(3);
  });
});
