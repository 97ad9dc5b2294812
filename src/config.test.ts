import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, configFrom } from './config.js';

describe('FOLIO_PROCESSES', () => {
  it('is one process unless set', () => {
    expect(configFrom({}).processes).toBe(1);
    expect(configFrom({ FOLIO_PROCESSES: '' }).processes).toBe(1);
  });

  it('takes a count', () => {
    expect(configFrom({ FOLIO_PROCESSES: '1' }).processes).toBe(1);
    expect(configFrom({ FOLIO_PROCESSES: ' 4 ' }).processes).toBe(4);
    expect(configFrom({ FOLIO_PROCESSES: '256' }).processes).toBe(256);
  });

  it('is one per CPU for auto or 0', () => {
    for (const value of ['auto', 'AUTO', '0'])
      expect(configFrom({ FOLIO_PROCESSES: value }).processes, value).toBe(os.availableParallelism());
  });

  it('refuses anything else, naming the variable', () => {
    for (const value of ['two', '-1', '1.5', '257']) {
      let error: unknown;
      try {
        configFrom({ FOLIO_PROCESSES: value });
      } catch (caught) {
        error = caught;
      }
      expect(error, value).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems, value).toEqual([
        'FOLIO_PROCESSES: must be auto or a whole number from 0 to 256',
      ]);
    }
  });
});

describe('FF_COEDIT', () => {
  it('is on unless set to false', () => {
    expect(configFrom({}).coedit).toBe(true);
    expect(configFrom({ FF_COEDIT: 'true' }).coedit).toBe(true);
    expect(configFrom({ FF_COEDIT: 'false' }).coedit).toBe(false);
    expect(configFrom({ FF_COEDIT: '0' }).coedit).toBe(false);
  });
});
