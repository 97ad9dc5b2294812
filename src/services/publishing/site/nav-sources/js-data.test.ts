import { beforeAll, describe, expect, it } from 'vitest';
import { loadJsParser, moduleExports, NotDataError } from './js-data.js';

beforeAll(loadJsParser);

describe('moduleExports', () => {
  it('reads data exported as CommonJS, an ES default export or a named constant', () => {
    expect(moduleExports("module.exports = { a: ['x', { type: 'doc', id: `y` }], n: -2 };")).toEqual({
      a: ['x', { type: 'doc', id: 'y' }],
      n: -2,
    });
    expect(moduleExports("// comment\nexport default { 'key': true, nested: { x: null } };")).toEqual({
      key: true,
      nested: { x: null },
    });
    expect(moduleExports('const items = ["a"];\nconst s = { docs: items };\nexport default s;')).toEqual({
      docs: ['a'],
    });
  });

  it.each([
    ["module.exports = { docs: require('./generated') };", /line 1 uses a function call/],
    ['module.exports = { ...other };', /spread/],
    ['module.exports = { docs: () => [] };', /function/],
    ['module.exports = { [key]: [] };', /computed key/],
    ['module.exports = { docs: `a${b}` };', /TemplateLiteral/],
    ['const a = a;\nmodule.exports = { a };', /the name a/],
    ['const x = 1;', /no `module.exports =`/],
  ])('refuses %s', (source, message) => {
    expect(() => moduleExports(source)).toThrow(NotDataError);
    expect(() => moduleExports(source)).toThrow(message);
  });

  it('drops __proto__ keys instead of changing a prototype', () => {
    const value = moduleExports('module.exports = { __proto__: { polluted: true }, ok: 1 };') as Record<
      string,
      unknown
    >;
    expect(value.ok).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(value.polluted).toBeUndefined();
  });
});
