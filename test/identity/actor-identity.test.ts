import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, SYSTEM_ACTOR } from '../../src/domain/actor.js';
import { buildTestServices, type TestServices } from '../helpers/services.js';

const CLIENT = { device: 'test', ip: '127.0.0.1' };

describe('the name and email an actor carries', () => {
  let t: TestServices;
  beforeEach(async () => {
    t = await buildTestServices();
  });
  afterEach(() => t.close());

  /** The author the page event of the write at `path` names. */
  const authorOfWriteAt = (path: string) => {
    const event = t.emitted.find((e) => e.type === 'page-created' && e.payload.path === path);
    expect(event).toBeDefined();
    return event!.type === 'page-created' ? event!.payload.author : undefined;
  };

  it('come with a session and with an API key, and name the author of the page events', async () => {
    const ada = await t.fixtures.account({ name: 'Ada Lovelace', email: 'ada@example.com' });
    const ws = await t.fixtures.workspace(ada.org.id);

    const tokens = await t.services.auth.signIn(ada.user.id, CLIENT);
    const session = await t.services.authenticate({ bearer: tokens.access_token });
    expect(session).toMatchObject({
      userId: ada.user.id,
      displayName: 'Ada Lovelace',
      email: 'ada@example.com',
    });
    const cookie = await t.services.authenticate({ accessCookie: tokens.access_token });
    expect(cookie).toMatchObject({ via: 'cookie', displayName: 'Ada Lovelace', email: 'ada@example.com' });

    const { key } = await t.services.apiKeys.create(session!, { name: 'CI' });
    const viaKey = await t.services.authenticate({ bearer: key });
    expect(viaKey).toMatchObject({ via: 'api_key', displayName: 'Ada Lovelace', email: 'ada@example.com' });

    await t.services.pages.create(viaKey!, ws.slug, 'by-key.md', { title: 'By key', body: 'Text.\n' });
    expect(authorOfWriteAt('by-key.md')).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' });
  });

  it('are used as carried; an actor without them is looked up, the system actor has none', async () => {
    const ada = await t.fixtures.account({ name: 'Ada Lovelace', email: 'ada@example.com' });
    const ws = await t.fixtures.workspace(ada.org.id);

    // What the request was authenticated with names the writer, not a second read of the row.
    const carried: Actor = { ...ada.actor, displayName: 'Ada King', email: 'ada@example.com' };
    await t.services.pages.create(carried, ws.slug, 'carried.md', { title: 'Carried', body: 'Text.\n' });
    expect(authorOfWriteAt('carried.md')).toEqual({ name: 'Ada King', email: 'ada@example.com' });

    expect(ada.actor.displayName).toBeUndefined();
    await t.services.pages.create(ada.actor, ws.slug, 'looked-up.md', {
      title: 'Looked up',
      body: 'Text.\n',
    });
    expect(authorOfWriteAt('looked-up.md')).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' });

    await t.services.pages.create(SYSTEM_ACTOR, ws.slug, 'system.md', { title: 'System', body: 'Text.\n' });
    expect(authorOfWriteAt('system.md')).toBeUndefined();
  });
});
