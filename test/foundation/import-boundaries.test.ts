import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const configFile = path.join(root, 'eslint.config.js');

/** The rule ids ESLint reports for `text` as if it were `file`. */
async function ruleIdsFor(eslint: ESLint, text: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: file });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

// Linting loads the TypeScript resolver and parser: slow on a busy machine, never a timing test.
describe('import boundaries (eslint.config.js)', { timeout: 300_000 }, () => {
  const eslint = new ESLint({ cwd: root, overrideConfigFile: configFile });

  it('refuses an adapter importing a capability’s inner file, and allows the public faces', async () => {
    const route = path.join(root, 'src/http/routes/planted.ts');
    expect(
      await ruleIdsFor(
        eslint,
        "import { createUploads } from '../../services/pages/uploads.js';\nexport const planted = createUploads;\n",
        route,
      ),
    ).toEqual(['no-restricted-imports']);
    const tool = path.join(root, 'src/mcp/tools/planted.ts');
    expect(
      await ruleIdsFor(
        eslint,
        "import type { SiteService } from '../../services/publishing/site/site.js';\nexport type Planted = SiteService;\n",
        tool,
      ),
    ).toEqual(['no-restricted-imports']);
    const allowed = [
      "import type { Services } from '../../services/index.js';",
      "import { MAX_UPLOAD_BYTES } from '../../services/pages/index.js';",
      "import type { AccessService } from '../../services/access.js';",
      'export type Planted = [Services, AccessService];',
      'export const planted = MAX_UPLOAD_BYTES;',
    ].join('\n');
    expect(await ruleIdsFor(eslint, `${allowed}\n`, route)).toEqual([]);
  });

  it('refuses a service importing a transport: fastify, @fastify/*, the MCP SDK, ws', async () => {
    const service = path.join(root, 'src/services/pages/planted.ts');
    for (const module of ['fastify', '@fastify/multipart', '@modelcontextprotocol/sdk/server/mcp.js', 'ws']) {
      expect(
        await ruleIdsFor(
          eslint,
          `import type * as planted from '${module}';\nexport type Planted = typeof planted;\n`,
          service,
        ),
        module,
      ).toEqual(['no-restricted-imports']);
    }
  });

  describe('import cycles', () => {
    let dir: string;
    beforeAll(() => {
      // Inside src/, where the cycle rules apply; removed again after.
      dir = fs.mkdtempSync(path.join(root, 'src', 'cycle-fixture-'));
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('reports a cycle of value imports and of type-only imports', async () => {
      const a = path.join(dir, 'a.ts');
      const b = path.join(dir, 'b.ts');
      const typeOnlyA = "import type { B } from './b.js';\nexport interface A {\n  b: B;\n}\n";
      fs.writeFileSync(a, typeOnlyA);
      fs.writeFileSync(b, "import type { A } from './a.js';\nexport interface B {\n  a?: A;\n}\n");
      // Type-only both ways: no cost at run time, but still a cycle.
      expect(await ruleIdsFor(eslint, typeOnlyA, a)).toEqual(['folio/no-import-cycle']);

      const valueA = "import { b } from './b.js';\nexport const a = (): number => b() + 1;\n";
      fs.writeFileSync(a, valueA);
      fs.writeFileSync(b, "import { a } from './a.js';\nexport const b = (): number => (a ? 1 : 0);\n");
      expect(await ruleIdsFor(eslint, valueA, a)).toEqual(['folio/no-import-cycle']);

      // One way only is no cycle.
      fs.writeFileSync(b, 'export const b = (): number => 1;\n');
      expect(await ruleIdsFor(eslint, valueA, a)).toEqual([]);
    });
  });

  describe('import cycles in the web app', () => {
    let dir: string;
    beforeAll(() => {
      // Inside web/src/, where the rule applies to .ts and .tsx alike; removed again after.
      dir = fs.mkdtempSync(path.join(root, 'web', 'src', 'cycle-fixture-'));
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('reports a component and a store importing each other without extensions', async () => {
      const screen = path.join(dir, 'screen.tsx');
      const store = path.join(dir, 'store.ts');
      const screenText = "import { count } from './store';\nexport const Screen = () => <p>{count()}</p>;\n";
      fs.writeFileSync(screen, screenText);
      fs.writeFileSync(
        store,
        "import type { Screen } from './screen';\nexport const count = (s?: typeof Screen) => (s ? 1 : 0);\n",
      );
      expect(await ruleIdsFor(eslint, screenText, screen)).toEqual(['folio/no-import-cycle']);

      // A lazily loaded component counts too: `import()` is an edge of the graph.
      const lazyText = "export const load = () => import('./store');\n";
      fs.writeFileSync(screen, lazyText);
      expect(await ruleIdsFor(eslint, lazyText, screen)).toEqual(['folio/no-import-cycle']);

      fs.writeFileSync(store, 'export const count = () => 1;\n');
      expect(await ruleIdsFor(eslint, screenText, screen)).toEqual([]);
    });
  });

  it('lets the web app import the contract as types only', async () => {
    const screen = path.join(root, 'web/src/workspace/planted.tsx');
    const value =
      "import { pageObject } from '../../../src/contract/pages';\nexport const planted = pageObject;\n";
    expect(await ruleIdsFor(eslint, value, screen)).toEqual(['@typescript-eslint/no-restricted-imports']);
    const typeOnly =
      "import type { Page } from '../../../src/contract/pages';\nexport type Planted = Page;\n";
    expect(await ruleIdsFor(eslint, typeOnly, screen)).toEqual([]);
  });

  it('finds the real tree clean', async () => {
    const results = await eslint.lintFiles(['src', 'web/src']);
    const problems = results.flatMap((r) =>
      r.messages.map((m) => `${path.relative(root, r.filePath)}:${m.line} ${m.ruleId}: ${m.message}`),
    );
    expect(problems).toEqual([]);
  });
});
