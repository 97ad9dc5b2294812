import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const configFile = path.join(root, 'eslint.config.js');
const MESSAGE = 'SQL is written in src/store/ only: add a repository function.';

interface Problem {
  ruleId: string | null;
  message: string;
}

/** What ESLint reports for `text` as if it were the file `relativePath` of the repository. */
async function problemsFor(eslint: ESLint, text: string, relativePath: string): Promise<Problem[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(root, relativePath) });
  return (result?.messages ?? []).map((m) => ({ ruleId: m.ruleId, message: m.message }));
}

const QUERY_BUILDER_CALLS = {
  selectFrom: "db.selectFrom('pages').selectAll().execute()",
  insertInto: "db.insertInto('pages').values({ id: 'p' }).execute()",
  updateTable: "db.updateTable('pages').set({ title: 't' }).execute()",
  deleteFrom: "db.deleteFrom('pages').execute()",
};

/** A service body that runs `call` on a Kysely handle it was given. */
function serviceCalling(call: string): string {
  return [
    "import type { Kysely } from 'kysely';",
    "import type { Database } from '../../store/schema.js';",
    `export const planted = (db: Kysely<Database>): Promise<unknown> => ${call};`,
    '',
  ].join('\n');
}

const SQL_TAG_IMPORT = ["import { sql } from 'kysely';", 'export const planted = sql`select 1`;', ''].join(
  '\n',
);

// Linting loads the TypeScript parser and resolver: slow on a busy machine, never a timing test.
describe('SQL only in src/store/ (eslint.config.js)', { timeout: 300_000 }, () => {
  const eslint = new ESLint({ cwd: root, overrideConfigFile: configFile });

  for (const [builder, call] of Object.entries(QUERY_BUILDER_CALLS)) {
    it(`refuses .${builder}( in a service, and allows it in a repository and in a test`, async () => {
      const text = serviceCalling(call);
      expect(await problemsFor(eslint, text, 'src/services/pages/planted.ts')).toEqual([
        { ruleId: 'no-restricted-syntax', message: MESSAGE },
      ]);
      expect(await problemsFor(eslint, text, 'src/store/repositories/planted.ts')).toEqual([]);
      expect(await problemsFor(eslint, text, 'src/services/pages/planted.test.ts')).toEqual([]);
    });
  }

  it('refuses a query built inside a transaction body outside the store', async () => {
    const text = serviceCalling(
      "db.transaction().execute((trx) => trx.deleteFrom('pages').where('id', '=', 'p').execute())",
    );
    expect(await problemsFor(eslint, text, 'src/http/routes/planted.ts')).toEqual([
      { ruleId: 'no-restricted-syntax', message: MESSAGE },
    ]);
  });

  it('refuses importing sql from kysely outside the store, and allows type-only imports', async () => {
    expect(await problemsFor(eslint, SQL_TAG_IMPORT, 'src/search/planted.ts')).toEqual([
      { ruleId: '@typescript-eslint/no-restricted-imports', message: expect.stringContaining(MESSAGE) },
    ]);
    expect(await problemsFor(eslint, SQL_TAG_IMPORT, 'src/store/search/planted.ts')).toEqual([]);
    const typesOnly = [
      "import type { Kysely, Selectable, Transaction } from 'kysely';",
      'export type Planted = [Kysely<object>, Selectable<object>, Transaction<object>];',
      '',
    ].join('\n');
    expect(await problemsFor(eslint, typesOnly, 'src/services/pages/planted.ts')).toEqual([]);
  });

  it('keeps the adapters’ own import rule beside the sql one', async () => {
    // Both no-restricted-imports lists apply to an adapter: neither replaces the other.
    const text = [
      "import { sql } from 'kysely';",
      "import { createUploads } from '../../services/pages/uploads.js';",
      'export const planted = [sql`select 1`, createUploads];',
      '',
    ].join('\n');
    const ruleIds = (await problemsFor(eslint, text, 'src/http/routes/planted.ts')).map((p) => p.ruleId);
    expect(ruleIds.sort()).toEqual(['@typescript-eslint/no-restricted-imports', 'no-restricted-imports']);
  });
});
