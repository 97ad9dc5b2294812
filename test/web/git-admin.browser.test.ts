/**
 * The Git screen in headless Chromium against a real server and a real bare repository
 * over file://: connecting the remote, "Sync now" pulling a commit pushed to it, a
 * conflict appearing live and resolved from its diff, write-only credentials, and the
 * deploy key and webhook to copy.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ARTIFACTS,
  describeInChromium,
  seriousA11yViolations,
  startAppServer,
  useBrowserApp,
} from '../helpers/browser.js';
import { eventually } from '../helpers/eventually.js';
import {
  bob,
  cloneRepo,
  commitFile,
  createBareRepo,
  fileUrl,
  makeTempDir,
  pushClone,
  removeTempDir,
} from '../helpers/git-fixtures.js';
import { runGit } from '../../src/git/git.js';

/** A file's text on the bare remote's main branch, or null while it is not there. */
async function fileAt(repo: string, file: string): Promise<string | null> {
  const shown = await runGit(repo, ['show', `main:${file}`], { allowFailure: true });
  return shown.code === 0 ? shown.stdout : null;
}

describeInChromium('web app: the Git screen', () => {
  let remoteRoot = '';
  const app = useBrowserApp({
    owner: { name: 'Olive Owner' },
    start: async () => {
      remoteRoot = await makeTempDir('folio-git-screen-');
      return startAppServer({
        env: { GIT_ALLOW_FILE_REMOTES: 'true', GIT_FILE_REMOTE_ROOT: remoteRoot, GIT_SYNC_INTERVAL: '0' },
      });
    },
  });
  let bare = '';
  let clone = '';

  beforeAll(async () => {
    bare = await createBareRepo(remoteRoot, 'docs');
  });
  afterAll(() => removeTempDir(remoteRoot));

  const workspaceRecord = async () =>
    (await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}`, { token: app.owner.token })).body;

  async function openGitScreen() {
    const tab = await app.openWorkspace();
    await tab.page.goto(`${app.server.url}/settings/w/${app.ws.slug}/git`);
    await tab.page.getByRole('heading', { name: 'Remote' }).waitFor();
    return tab;
  }

  it('connects a remote, and "Sync now" pulls a commit pushed to it', async () => {
    await app.createPage('guide.md', { title: 'Guide', body: 'line one\nline two\nline three\n' });
    const { context, page } = await openGitScreen();
    await page.getByLabel('Repository URL').fill(fileUrl(bare));
    await page.getByLabel('Branch').fill('main');
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('status').filter({ hasText: 'Remote saved.' }).waitFor();
    expect(await workspaceRecord()).toMatchObject({ git_remote: fileUrl(bare), git_branch: 'main' });

    // The first sync pushes what Folio has.
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByText(/^Synced:/).waitFor();
    await eventually(() => fileAt(bare, 'guide.md'));

    // Someone pushes a new page from their laptop.
    clone = await cloneRepo(fileUrl(bare), path.join(remoteRoot, 'clone'));
    await commitFile(
      clone,
      'from-laptop.md',
      '---\ntitle: From the laptop\n---\n\nWritten elsewhere.\n',
      bob,
    );
    await pushClone(clone);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByText('Synced: 1 added, 0 updated, 0 deleted.').waitFor();
    const pulled = await app.server.request('GET', `/api/v1/content/${app.ws.slug}/from-laptop.md`, {
      token: app.owner.token,
    });
    expect(pulled.status).toBe(200);
    expect(pulled.body.content).toBe('Written elsewhere.\n');
    expect(await page.locator('.facts').textContent()).not.toContain('Never');
    await context.close();
  }, 120_000);

  it('shows a conflict as it is found and resolves it from the diff with an edited merge', async () => {
    const { context, page } = await openGitScreen();
    await page.getByText('No conflicts: Folio and the remote agree.').waitFor();
    const uncaught: Error[] = [];
    page.on('pageerror', (error) => uncaught.push(error));

    // The same line changes on the remote and in Folio.
    await runGit(clone, ['pull', '-q', 'origin', 'main']);
    const gitText = fs
      .readFileSync(path.join(clone, 'guide.md'), 'utf8')
      .replace('line two', 'line two, from git');
    await commitFile(clone, 'guide.md', gitText, bob);
    await pushClone(clone);
    const current = await app.server.request('GET', `/api/v1/content/${app.ws.slug}/guide.md`, {
      token: app.owner.token,
    });
    const web = await app.server.request('PUT', `/api/v1/content/${app.ws.slug}/guide.md`, {
      token: app.owner.token,
      body: {
        body: 'line one\nline two, from the web\nline three\n',
        lastKnownHash: current.body.content_hash,
      },
    });
    expect(web.status).toBe(200);
    const sync = await app.server.request('POST', `/api/v1/workspaces/${app.ws.id}/sync`, {
      token: app.owner.token,
    });
    expect(sync.body).toMatchObject({ status: 'conflict', conflicts: [{ path: 'guide.md' }] });

    // No reload: the screen follows the workspace's events.
    const conflicts = page.getByRole('region', { name: 'Conflicts' });
    await conflicts.getByRole('button', { name: 'Review guide.md' }).click({ timeout: 20_000 });
    await page.locator('[role=status].sync-badge', { hasText: 'Waiting for conflicts' }).waitFor();
    const ours = page.getByLabel('Ours, in Folio');
    const theirs = page.getByLabel('Theirs, on the remote');
    await expect.poll(() => ours.textContent()).toContain('line two, from the web');
    await expect.poll(() => theirs.textContent()).toContain('line two, from git');
    expect(await seriousA11yViolations(page), 'git screen with a conflict open').toEqual([]);
    await conflicts.getByText(/found .* ago|found now/).waitFor();
    // The administration column scrolls on its own: a taller window shows more of it.
    await page.setViewportSize({ width: 1280, height: 1150 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'git-1280-light.png') });
    await page.setViewportSize({ width: 1280, height: 860 });

    await conflicts.getByRole('button', { name: 'Edit merge' }).click();
    const merged = page.getByLabel('Merged text');
    await merged.locator('.cm-line', { hasText: 'line two, from the web' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' and from git');
    await conflicts.getByRole('button', { name: 'Save merge' }).click();
    await conflicts.getByText('No conflicts: Folio and the remote agree.').waitFor({ timeout: 20_000 });

    const saved = await app.server.request('GET', `/api/v1/content/${app.ws.slug}/guide.md`, {
      token: app.owner.token,
    });
    expect(saved.body.content).toBe('line one\nline two, from the web and from git\nline three\n');
    const list = await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}/conflicts`, {
      token: app.owner.token,
    });
    expect(list.body.conflicts).toEqual([]);
    expect(uncaught).toEqual([]);
    // The resolution is committed and pushed.
    await eventually(async () => (await fileAt(bare, 'guide.md'))?.includes('and from git') || null);
    await context.close();
  }, 120_000);

  it('answers "Sync now" while the status shows a sync running in the background', async () => {
    const { context, page } = await app.openWorkspace();
    // Every read of the workspace says a sync is running, as it does for a moment after
    // Connect or a push: a click then must still sync, not land on a disabled button.
    const workspacePaths = [`/api/v1/workspaces/${app.ws.id}`, `/api/v1/workspaces/${app.ws.id}/conflicts`];
    await page.route(
      (url) => workspacePaths.includes(url.pathname),
      async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        const response = await route.fetch();
        return route.fulfill({ response, json: { ...(await response.json()), sync_status: 'syncing' } });
      },
    );
    await page.goto(`${app.server.url}/settings/w/${app.ws.slug}/git`);
    await page.getByRole('status').filter({ hasText: 'Syncing…' }).waitFor();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: path.join(ARTIFACTS, `git-syncing-1280-${colorScheme}.png`) });
    }
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByText(/^Synced:/).waitFor();
    await context.close();
  });

  it('stores credentials write-only and shows the deploy key and webhook to copy', async () => {
    const { context, page } = await openGitScreen();
    const credentials = page.getByRole('form', { name: 'HTTPS credentials' });
    await credentials.getByLabel('User name').fill('olive');
    await credentials.getByLabel('Password or token').fill('s3cret-token-value');
    await credentials.getByRole('button', { name: 'Save credentials' }).click();
    await credentials.getByText('Stored for olive.', { exact: false }).waitFor();
    expect(await credentials.getByLabel('Password or token').inputValue()).toBe('');
    const record = await workspaceRecord();
    expect(record.git_username).toBe('olive');
    expect(JSON.stringify(record)).not.toContain('s3cret-token-value');
    expect(await page.content()).not.toContain('s3cret-token-value');

    expect(await page.getByLabel('Webhook URL').inputValue()).toBe(record.webhook_url);
    expect(await page.getByLabel('Webhook secret').inputValue()).toBe(record.webhook_secret);
    await page.getByText('On GitLab').click();
    await page.getByText('Secret token: the webhook secret above.').waitFor();
    await expect.poll(() => page.getByLabel('Public key').inputValue()).toMatch(/^ssh-ed25519 /);

    await credentials.getByRole('button', { name: 'Remove credentials…' }).click();
    await credentials.getByRole('button', { name: 'Remove the credentials' }).click();
    await expect.poll(async () => (await workspaceRecord()).git_username).toBe(null);
    expect(await seriousA11yViolations(page), 'git screen').toEqual([]);
    await context.close();
  }, 90_000);

  it('fits a phone: no horizontal scrolling at 390 px', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const size = { width: 390, height: 1800, colorScheme };
      const { context, page } = await app.openWorkspace(undefined, size);
      await page.goto(`${app.server.url}/settings/w/${app.ws.slug}/git`);
      await page.getByLabel('Webhook secret').waitFor();
      await page.getByText('On GitHub').click();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(ARTIFACTS, `git-390-${colorScheme}.png`) });
      await context.close();
    }
  }, 60_000);
});
